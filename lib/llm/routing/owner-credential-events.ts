import type { Redis } from "ioredis";

const CHANNEL = "gw:provider-keys:changed";

/**
 * Tells every instance that an owner stored or deleted a provider key, so each forgets its cached
 * answer for that owner and provider at once instead of serving it until it is stale. The message
 * names the owner and provider, never the key.
 */
export type CredentialEvents = {
  publish(ownerId: string, provider: string): Promise<void>;
  close(): Promise<void>;
};

export async function redisCredentialEvents(
  url: string,
  onChange: (ownerId: string, provider: string) => void,
  onError: (err: unknown) => void,
): Promise<CredentialEvents> {
  const { connectRedis } = await import("../../gateway/runtime/redis.ts");
  const publisher = connectRedis(url, "gateway-provider-key-events");
  const subscriber: Redis = connectRedis(url, "gateway-provider-key-subscriber");
  publisher.on("error", onError);
  subscriber.on("error", onError);
  subscriber.on("message", (_channel, message: string) => {
    const [ownerId, provider] = message.split("\0");
    if (ownerId && provider) onChange(ownerId, provider);
  });
  try {
    await subscriber.subscribe(CHANNEL);
  } catch (err) {
    publisher.disconnect();
    subscriber.disconnect();
    throw err;
  }
  return {
    async publish(ownerId, provider) {
      await publisher.publish(CHANNEL, `${ownerId}\0${provider}`);
    },
    async close() {
      await Promise.all([publisher.quit(), subscriber.quit()]);
    },
  };
}
