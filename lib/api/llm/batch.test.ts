import { describe, expect, it } from "vitest";
import { batchQuotaError } from "./batch.ts";

describe("batchQuotaError", () => {
  const noon = Date.UTC(2026, 10, 26, 12, 0, 0);
  it("allows a batch that fits in what is left today, to the last item", () => {
    expect(batchQuotaError(0, 100, 100, noon)).toBeNull();
    expect(batchQuotaError(60, 40, 100, noon)).toBeNull();
  });

  it("refuses one that does not, saying what is left and pointing Retry-After at midnight UTC", () => {
    const err = batchQuotaError(60, 41, 100, noon)!;
    expect(err).toMatchObject({ status: 429, retryAfter: 12 * 3600, window: "batch_items" });
    expect(err.message).toMatch(/100 items per key per UTC day; 40 left today and this batch has 41/);
    expect(batchQuotaError(150, 1, 100, noon)!.message).toMatch(/0 left today/);
  });
});
