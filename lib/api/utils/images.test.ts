import { describe, expect, it } from "vitest";
import { bmp24, resizedSize } from "./images.ts";

describe("bmp24", () => {
  it("writes the header and pads each row to 4 bytes", () => {
    // 2x2, bottom row first: blue, green / red, white (as B, G, R).
    const rows = Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]);
    const bmp = bmp24(rows, 2, 2);
    expect(bmp.subarray(0, 2).toString("latin1")).toBe("BM");
    expect([
      bmp.readUInt32LE(2),
      bmp.readUInt32LE(10),
      bmp.readInt32LE(18),
      bmp.readInt32LE(22),
      bmp.readUInt16LE(28),
    ]).toEqual([54 + 16, 54, 2, 2, 24]);
    expect([...bmp.subarray(54)]).toEqual([255, 0, 0, 0, 255, 0, 0, 0, 0, 0, 255, 255, 255, 255, 0, 0]);
  });

  it("adds no padding when rows are already a multiple of 4 bytes", () => {
    expect(bmp24(Buffer.alloc(4 * 3 * 2), 4, 2).length).toBe(54 + 24);
  });
});

describe("resizedSize", () => {
  it("fits inside the box keeping the aspect ratio, or fills it", () => {
    expect(resizedSize({ width: 400, height: 200 }, { width: 100, maintainAspect: true })).toEqual([100, 50]);
    expect(resizedSize({ width: 400, height: 200 }, { width: 100, height: 100, maintainAspect: true })).toEqual([
      100, 50,
    ]);
    expect(resizedSize({ width: 400, height: 200 }, { width: 64, height: 64, maintainAspect: false })).toEqual([
      64, 64,
    ]);
    expect(resizedSize({ width: 10, height: 1000 }, { width: 10_000, maintainAspect: false })).toEqual([
      10_000, 1_000_000,
    ]);
  });
});
