import { effectiveLimits, type KeyRecord } from "../../gateway/keys/record.ts";
import type { Admission } from "../../gateway/runtime/limits/limiter.ts";
import type { Limits } from "../../gateway/runtime/limits/windows.ts";

const window = (w: { limit: number; remaining: number; reset: number }) => ({
  limit: w.limit,
  remaining: w.remaining,
  reset: Math.ceil(w.reset / 1000),
});

/** GET /v1/key's answer (KeyInfo): the calling key and what its admission left in each window. */
export function keyInfo(key: KeyRecord, admission: Admission, defaults: Limits) {
  return {
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    status: key.status,
    scopes: key.scopes,
    expires_at: key.expiresAt === null ? null : new Date(key.expiresAt).toISOString(),
    limits: effectiveLimits(key, defaults),
    remaining: {
      minute: window(admission.minute),
      day: window(admission.day),
      concurrency: {
        limit: admission.concurrency.limit,
        in_use: admission.concurrency.inUse,
        remaining: Math.max(0, admission.concurrency.limit - admission.concurrency.inUse),
      },
    },
  };
}
