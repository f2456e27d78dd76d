import type { UsageEventInput } from "./usage-event.ts";

/** The instant test usage events happen at. */
export const EVENT_TIME = new Date("2026-03-15T12:00:00Z");

/** A usage event as the guard records it: a fast 200 from the data area unless `over` says otherwise. */
export function usageEvent(keyId: string, over: Partial<UsageEventInput> = {}): UsageEventInput {
  return {
    keyId,
    requestId: "r",
    method: "GET",
    route: "/v1/data/:source",
    area: "data",
    status: 200,
    latencyMs: 20,
    bytesIn: 0,
    bytesOut: 10,
    at: EVENT_TIME,
    ...over,
  };
}
