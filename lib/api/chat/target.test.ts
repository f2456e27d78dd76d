import { describe, expect, it } from "vitest";
import { splitModel } from "./target.ts";

describe("splitModel", () => {
  it("routes provider/model, and a slashed model id behind its provider", () => {
    expect(splitModel("xai/grok-4")).toEqual({ provider: "xai", model: "grok-4" });
    expect(splitModel("groq/meta-llama/llama-4")).toEqual({ provider: "groq", model: "meta-llama/llama-4" });
  });

  it("sends a bare model id to the provider that lists it", () => {
    expect(splitModel("claude-haiku-4-5").provider).toBe("anthropic");
  });

  it("refuses an unknown provider prefix with a 400 naming the known providers", () => {
    expect(() => splitModel("nope/xyz")).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/unknown provider 'nope'.*openai/) }),
    );
  });
});
