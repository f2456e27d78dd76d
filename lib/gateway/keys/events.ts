import type { Redis } from "ioredis";
import type { KeyStore } from "./store.ts";

const CHANNEL = "gw:keys:changed";

/** Tells every instance that a key changed, so each drops its copy at once (revocations). */
export type KeyEvents = {
  publish(hash: string): Promise<void>;
  close(): Promise<void>;
};

/** Without Redis the only other instances are other processes on one database: the key poll reaches them. */
export const localKeyEvents: KeyEvents = { publish: async () => {}, close: async () => {} };

export async function redisKeyEvents(
  url: string,
  keys: KeyStore | null,
  onError: (err: unknown) => void,
): Promise<KeyEvents> {
  const { connectRedis } = await import("../runtime/redis.ts");
  const publisher = connectRedis(url, "gateway-key-events");
  let subscriber: Redis | undefined;
  if (keys) {
    subscriber = connectRedis(url, "gateway-key-subscriber");
    subscriber.on("message", (_channel, hash: string) => keys.forget(hash));
    subscriber.on("error", onError);
    await subscriber.subscribe(CHANNEL);
  }
  publisher.on("error", onError);
  return {
    async publish(hash) {
      await publisher.publish(CHANNEL, hash);
    },
    async close() {
      await Promise.all([publisher.quit(), subscriber?.quit()]);
    },
  };
}
