import { describe, expect, it } from "vitest";
import { espeakLanguages, espeakMp3 } from "./espeak.ts";
import { mp3Duration } from "./mp3.ts";

describe("espeak", () => {
  it("knows 100+ languages", async () => {
    const langs = await espeakLanguages();
    expect(langs.length).toBeGreaterThan(100);
    expect(langs).toContainEqual({ code: "en-us", name: "English (America)", aliases: ["en"] });
  });

  it("speaks to a valid MP3 whose length follows the text", async () => {
    const short = mp3Duration(await espeakMp3("Hello.", "en"));
    const long = mp3Duration(await espeakMp3("Hello. This sentence is a good deal longer than the first one.", "en"));
    expect(short.frames).toBeGreaterThan(5);
    expect(short.seconds).toBeGreaterThan(0.3);
    expect(long.seconds).toBeGreaterThan(short.seconds * 2);
  });

  it("reads flag-like text as text and refuses unknown languages", async () => {
    expect(mp3Duration(await espeakMp3("-w /etc/passwd", "en")).seconds).toBeGreaterThan(0.5);
    await expect(espeakMp3("hi", "xx-nope")).rejects.toThrow(/unknown lang 'xx-nope'.*\/v1\/utils\/languages/);
  });
});
