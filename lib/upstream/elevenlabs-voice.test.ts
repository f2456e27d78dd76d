import { describe, expect, it } from "vitest";
import { looksLikeVoiceId, voiceIdFor } from "./elevenlabs-voice.ts";

const VOICES = [
  { id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel" },
  { id: "pNInz6obpgDQGcFmaJgB", name: "Adam" },
];

describe("voiceIdFor", () => {
  it("resolves a name (case ignored) to its id and keeps an id", () => {
    expect(voiceIdFor(VOICES, "Rachel")).toBe("21m00Tcm4TlvDq8ikWAM");
    expect(voiceIdFor(VOICES, "adam")).toBe("pNInz6obpgDQGcFmaJgB");
    expect(voiceIdFor(VOICES, "pNInz6obpgDQGcFmaJgB")).toBe("pNInz6obpgDQGcFmaJgB");
  });

  it("refuses an unknown voice with 400 naming a few known ones", () => {
    expect(() => voiceIdFor(VOICES, "Bob")).toThrow(/no voice 'Bob'.*Rachel \(21m00Tcm4TlvDq8ikWAM\), Adam/);
    expect(() => voiceIdFor([], "Bob")).toThrow(/no voice 'Bob': give a voice id or name/);
  });

  it("recognises ElevenLabs' 20-character ids", () => {
    expect(looksLikeVoiceId("21m00Tcm4TlvDq8ikWAM")).toBe(true);
    expect(looksLikeVoiceId("Rachel")).toBe(false);
  });
});
