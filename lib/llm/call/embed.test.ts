import { describe, expect, it } from "vitest";
import { embeddingsIn } from "./embed.ts";

describe("embeddingsIn", () => {
  it("puts the vectors in the texts' order by index, with the tokens counted", () => {
    const answer = {
      data: [
        { index: 1, embedding: [0, 1] },
        { index: 0, embedding: [1, 0] },
      ],
      usage: { prompt_tokens: 4, total_tokens: 4 },
    };
    expect(embeddingsIn("openai", answer, 2)).toEqual({
      embeddings: [
        [1, 0],
        [0, 1],
      ],
      tokens: 4,
    });
  });

  it("keeps the order sent when the provider gives no index, and counts no tokens it did not report", () => {
    expect(embeddingsIn("mistral", { data: [{ embedding: [1] }, { embedding: [2] }] }, 2)).toEqual({
      embeddings: [[1], [2]],
      tokens: 0,
    });
  });

  it("is a 502 naming the provider when the answer does not hold one vector per text", () => {
    for (const answer of [{ data: [{ embedding: [1] }] }, { data: [{ embedding: "AAAA" }] }, { object: "list" }])
      expect(() => embeddingsIn("openai", answer, 2)).toThrow(
        expect.objectContaining({ status: 502, message: expect.stringContaining("openai answered") }),
      );
  });
});
