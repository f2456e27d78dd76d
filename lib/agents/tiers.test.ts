import { afterEach, describe, expect, it, vi } from "vitest";
import { CHAT_PROVIDER_NAMES } from "../upstream/llm-catalogue.ts";
import { researchModels, researchPlan, tierModel, tierPlan } from "./tiers.ts";

describe("research tiers", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("shifts worker / synthesizer / summary one tier down or up with the budget", () => {
    expect(tierPlan("cheap")).toEqual({ worker: "cheap", synthesizer: "cheap", summary: "balanced" });
    expect(tierPlan("balanced")).toEqual({ worker: "cheap", synthesizer: "balanced", summary: "premium" });
    expect(tierPlan("premium")).toEqual({ worker: "balanced", synthesizer: "premium", summary: "premium" });
  });

  it("routes each level to the provider's model for its tier", () => {
    expect(researchModels("xai", "cheap")).toEqual({
      worker: "grok-3-mini",
      synthesizer: "grok-3-mini",
      summary: "grok-4-fast",
    });
    expect(researchModels("xai", "balanced")).toEqual({
      worker: "grok-3-mini",
      synthesizer: "grok-4-fast",
      summary: "grok-4",
    });
    expect(researchModels("xai", "premium")).toEqual({
      worker: "grok-4-fast",
      synthesizer: "grok-4",
      summary: "grok-4",
    });
    expect(researchModels("anthropic", "balanced")).toEqual({
      worker: "claude-haiku-4-5",
      synthesizer: "claude-sonnet-4-5",
      summary: "claude-opus-4-1",
    });
    expect(tierModel("openai", "cheap")).toBe("gpt-4.1-nano");
  });

  it("refuses an unknown provider with 400 naming the valid ones", () => {
    expect(() => researchModels("acme", "balanced")).toThrow(
      expect.objectContaining({
        status: 400,
        message: `unknown provider 'acme': use one of ${CHAT_PROVIDER_NAMES.join(", ")}`,
      }),
    );
  });

  it("checks before a run that the provider is configured: 503 naming its variable", () => {
    vi.stubEnv("MISTRAL_API_KEY", "");
    expect(() => researchPlan("mistral", "cheap")).toThrow(
      expect.objectContaining({ status: 503, message: "mistral is not configured: set MISTRAL_API_KEY" }),
    );
    vi.stubEnv("MISTRAL_API_KEY", "k");
    expect(researchPlan("mistral", "premium")).toEqual({
      tiers: { worker: "balanced", synthesizer: "premium", summary: "premium" },
      models: { worker: "mistral-medium-latest", synthesizer: "mistral-large-latest", summary: "mistral-large-latest" },
    });
    expect(() => researchPlan("acme", "cheap")).toThrow(expect.objectContaining({ status: 400 }));
  });
});
