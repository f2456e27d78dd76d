import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { DEFAULT_PROVIDER, providerEntry } from "../upstream/llm-catalogue.ts";
import { llmRouteModels, providerRouteModel } from "./llm-route-models.ts";

const aliases = { isAlias: (name: string) => name === "smart" };

describe("llmRouteModels", () => {
  it("reads the provider and model apart, each defaulting as /v1/llm/chat always has", () => {
    const defaultModel = providerEntry(DEFAULT_PROVIDER)!.defaultModel;
    expect(llmRouteModels(aliases, {}).model).toBe(`${DEFAULT_PROVIDER}/${defaultModel}`);
    expect(llmRouteModels(aliases, { provider: "anthropic", model: "claude-x" }).model).toBe("anthropic/claude-x");
    expect(llmRouteModels(aliases, { provider: "groq", model: "meta-llama/llama-4" }).model).toBe(
      "groq/meta-llama/llama-4",
    );
  });

  it("takes an alias named as the model, unless a provider is named with it", () => {
    expect(llmRouteModels(aliases, { model: "smart" }).model).toBe("smart");
    expect(llmRouteModels(aliases, { provider: "openai", model: "smart" }).model).toBe("openai/smart");
  });

  it("reads a fallback as an alias, a provider/model, or a provider and its default model", () => {
    const { fallbacks } = llmRouteModels(aliases, { fallback: ["smart", "openai/gpt-4.1", "anthropic"] });
    expect(fallbacks).toEqual(["smart", "openai/gpt-4.1", `anthropic/${providerEntry("anthropic")!.defaultModel}`]);
  });

  it("refuses an unknown provider, as the model or as a fallback, with a 400 naming it", () => {
    for (const body of [{ provider: "nope" }, { fallback: ["nope"] }]) {
      const thrown = (() => {
        try {
          llmRouteModels(aliases, body);
        } catch (err) {
          return err;
        }
      })();
      expect(thrown).toBeInstanceOf(GatewayError);
      expect(thrown).toMatchObject({ status: 400, message: expect.stringContaining("unknown provider 'nope'") });
    }
  });
});

describe("providerRouteModel", () => {
  it("reads a provider field as an alias, else the provider's default model, the default provider when none", () => {
    expect(providerRouteModel(aliases, "smart")).toBe("smart");
    expect(providerRouteModel(aliases, "anthropic")).toBe(`anthropic/${providerEntry("anthropic")!.defaultModel}`);
    expect(providerRouteModel(aliases)).toBe(`${DEFAULT_PROVIDER}/${providerEntry(DEFAULT_PROVIDER)!.defaultModel}`);
    expect(() => providerRouteModel(aliases, "nope")).toThrow(expect.objectContaining({ status: 400 }));
  });
});
