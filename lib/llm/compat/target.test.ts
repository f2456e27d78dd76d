import { describe, expect, it } from "vitest";
import { requestAnswerId, splitModel, storedAnswerId } from "./target.ts";

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

describe("answer ids", () => {
  it("takes an unstored answer's id from the request id, word characters only", () => {
    expect(requestAnswerId("chatcmpl-", "abc-123=")).toBe("chatcmpl-abc123");
  });

  it("makes a stored answer's id at random, whatever the request", () => {
    const [one, two] = [storedAnswerId("resp_"), storedAnswerId("resp_")];
    expect(one).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(two).not.toBe(one);
  });
});
