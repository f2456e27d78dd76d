import { describe, expect, it } from "vitest";
import { imageAnswer, negotiateImage } from "./image-answer.ts";

const FORMATS = ["png", "jpeg", "webp"] as const;

describe("negotiateImage", () => {
  it("answers JSON in the asked or default format unless Accept prefers an image type on offer", () => {
    expect(negotiateImage(undefined, FORMATS, undefined)).toEqual({ binary: false, format: "png" });
    expect(negotiateImage("application/json", FORMATS, "jpeg")).toEqual({ binary: false, format: "jpeg" });
    expect(negotiateImage("*/*", FORMATS, undefined)).toEqual({ binary: false, format: "png" });
  });

  it("lets Accept choose the format when none is asked for, and only the asked one otherwise", () => {
    expect(negotiateImage("image/*", FORMATS, undefined)).toEqual({ binary: true, format: "png" });
    expect(negotiateImage("image/webp", FORMATS, undefined)).toEqual({ binary: true, format: "webp" });
    expect(negotiateImage("image/webp", FORMATS, "png")).toEqual({ binary: false, format: "png" });
    expect(negotiateImage("image/webp;q=0.9, image/png", FORMATS, "png")).toEqual({ binary: true, format: "png" });
  });
});

describe("imageAnswer", () => {
  it("answers JSON as it is, varying by Accept", () => {
    const reply = imageAnswer({ image: "aGk=", format: "png", width: 1, height: 2, bytes: 2 }, "resized");
    expect([reply.status, reply.headers, JSON.parse(reply.body as string)]).toEqual([
      200,
      { "Content-Type": "application/json", Vary: "Accept" },
      { image: "aGk=", format: "png", width: 1, height: 2, bytes: 2 },
    ]);
  });

  it("answers bytes typed as the output format, inline, nosniff and described in headers", () => {
    const data = new Uint8Array([0xff, 0xd8, 0xff]);
    const reply = imageAnswer({ data, format: "jpeg", width: 4, height: 3, bytes: 3 }, "converted");
    expect(reply.body).toBe(data);
    expect(reply.headers).toEqual({
      "Content-Type": "image/jpeg",
      "Content-Length": "3",
      "Content-Disposition": 'inline; filename="converted.jpg"',
      "X-Content-Type-Options": "nosniff",
      "X-Image-Format": "jpeg",
      "X-Image-Width": "4",
      "X-Image-Height": "3",
      "X-Image-Bytes": "3",
      Vary: "Accept",
    });
  });
});
