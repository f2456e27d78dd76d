import type { Runtime } from "../../gateway/runtime/runtime.ts";
import type { KeyRecord } from "../../gateway/keys/record.ts";

/**
 * After the portal changes a key: this process's cache takes the new record now, and other
 * instances drop theirs through the Redis key channel (or see it on their next poll of changed rows).
 */
export async function publishKeyChange(rt: Runtime, ...records: KeyRecord[]): Promise<void> {
  for (const record of records) {
    rt.keys.remember(record);
    await rt.keyEvents.publish(record.hash);
  }
}
