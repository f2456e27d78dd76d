import { describe, expect, it } from "vitest";
import { videoParameters } from "./video-params.ts";

describe("videoParameters", () => {
  it("maps the spec's 5 and 10 seconds onto what Veo 3 makes (6 and 8) and keeps its own 4, 6 and 8", () => {
    expect(videoParameters("16:9", 5)).toEqual({
      model: "veo-3.0-generate-001",
      aspectRatio: "16:9",
      durationSeconds: 6,
    });
    expect(videoParameters("9:16", 10).durationSeconds).toBe(8);
    for (const d of [4, 6, 8]) expect(videoParameters("16:9", d).durationSeconds).toBe(d);
  });

  it("keeps 5 on Veo 2, which makes 5 to 8 seconds, and maps 10 to its 8", () => {
    expect(videoParameters("16:9", 5, "veo-2.0-generate-001").durationSeconds).toBe(5);
    expect(videoParameters("16:9", 10, "veo-2.0-generate-001").durationSeconds).toBe(8);
  });

  it("refuses what no mapping makes valid, naming the allowed values", () => {
    expect(() => videoParameters("1:1", 5)).toThrow(
      /aspect_ratio '1:1' is not one veo-3.0-generate-001 makes: use 16:9 or 9:16/,
    );
    expect(() => videoParameters("16:9", 7)).toThrow(/duration 7 is not available: use 4, 5, 6, 8 or 10 seconds/);
    expect(() => videoParameters("16:9", 3)).toThrow(/duration 3/);
    expect(() => videoParameters("16:9", 5, "veo-9")).toThrow(/unknown video model/);
  });
});
