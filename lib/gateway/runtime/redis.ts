import { Redis } from "ioredis";

/** A Redis connection that fails fast instead of queueing commands forever while Redis is away. */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
}
