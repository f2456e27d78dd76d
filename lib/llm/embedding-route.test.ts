import { describe, expect, it } from "vitest";
import { compatEmbeddingModel, llmEmbeddingModel } from "./embedding-route.ts";

const aliases = new Set(["embed"]);

describe("compatEmbeddingModel (/v1/embeddings)", () => {
  it("reads an alias, provider/model, or a bare id as OpenAI's", () => {
    expect(compatEmbeddingModel("embed", aliases)).toEqual({ alias: "embed" });
    expect(compatEmbeddingModel("openai/text-embedding-3-large", aliases)).toEqual({
      provider: "openai",
      model: "text-embedding-3-large",
    });
    expect(compatEmbeddingModel("ollama/nomic-embed-text", aliases)).toEqual({
      provider: "ollama",
      model: "nomic-embed-text",
    });
    expect(compatEmbeddingModel("text-embedding-3-small", aliases)).toEqual({
      provider: "openai",
      model: "text-embedding-3-small",
    });
  });

  it("refuses a provider that serves no embeddings, naming those that do", () => {
    expect(() => compatEmbeddingModel("xai/grok-4", aliases)).toThrow("embeddings come from openai or ollama, not xai");
    expect(() => compatEmbeddingModel("nope/x", aliases)).toThrow(/not nope/);
  });
});

describe("llmEmbeddingModel (/v1/llm/embed…)", () => {
  it("takes the provider field's default model when no model is named", () => {
    expect(llmEmbeddingModel(undefined, "openai", aliases)).toEqual({
      provider: "openai",
      model: "text-embedding-3-small",
    });
    expect(llmEmbeddingModel(undefined, "ollama", aliases)).toEqual({ provider: "ollama", model: "nomic-embed-text" });
  });

  it("reads an alias, a provider/model over the field, and any other id as the field's provider's", () => {
    expect(llmEmbeddingModel("embed", "openai", aliases)).toEqual({ alias: "embed" });
    expect(llmEmbeddingModel("ollama/all-minilm", "openai", aliases)).toEqual({
      provider: "ollama",
      model: "all-minilm",
    });
    expect(llmEmbeddingModel("library/all-minilm", "ollama", aliases)).toEqual({
      provider: "ollama",
      model: "library/all-minilm",
    });
    expect(() => llmEmbeddingModel("anthropic/claude", "openai", aliases)).toThrow(/not anthropic/);
  });
});
