import { describe, expect, it } from "vitest";
import { EMPTY_ROUTING, parseRoutingConfig } from "../../llm/routing/config.ts";
import { buildRouting } from "../../llm/routing/deployments.ts";
import { modelList } from "./model-list.ts";

describe("modelList", () => {
  const env = { OPENAI_API_KEY: "a", OPENAI_KEY_2: "b", ANTHROPIC_API_KEY: "c" };

  it("lists configured providers' models as provider/model, exactly as before, with no file", () => {
    const list = modelList(buildRouting(EMPTY_ROUTING, env), env);
    expect(list).toEqual([
      { id: "openai/gpt-4.1-mini", object: "model", created: 0, owned_by: "openai" },
      { id: "openai/gpt-4.1-nano", object: "model", created: 0, owned_by: "openai" },
      { id: "openai/gpt-4.1", object: "model", created: 0, owned_by: "openai" },
      { id: "anthropic/claude-sonnet-4-5", object: "model", created: 0, owned_by: "anthropic" },
      { id: "anthropic/claude-haiku-4-5", object: "model", created: 0, owned_by: "anthropic" },
      { id: "anthropic/claude-opus-4-1", object: "model", created: 0, owned_by: "anthropic" },
    ]);
  });

  it("puts the aliases first, each with its strategy and deployments", () => {
    const config = parseRoutingConfig(
      `deployments:
  - {name: oa-2, provider: openai, model: gpt-4.1, credential: OPENAI_KEY_2}
aliases:
  smart: {strategy: fallback, deployments: [oa-2, anthropic/claude-opus-4-1]}
`,
      "g.yaml",
      env,
    );
    const list = modelList(buildRouting(config, env), env);
    expect(list[0]).toEqual({
      id: "smart",
      object: "model",
      created: 0,
      owned_by: "gateway",
      routing: {
        strategy: "fallback",
        deployments: [
          { name: "oa-2", provider: "openai", model: "gpt-4.1" },
          { name: "anthropic/claude-opus-4-1", provider: "anthropic", model: "claude-opus-4-1" },
        ],
      },
    });
    expect(list.slice(1).map((m) => m.id)).toContain("openai/gpt-4.1-mini");
  });

  it("lists only what a key's model rules let it call", () => {
    const config = parseRoutingConfig(
      `aliases:
  smart: {deployments: [openai/gpt-4.1, anthropic/claude-opus-4-1]}
  cheap: {deployments: [openai/gpt-4.1-nano]}
`,
      "g.yaml",
      env,
    );
    const routing = buildRouting(config, env);
    const ids = (rules: { allow: string[]; deny: string[] }) => modelList(routing, env, rules).map((m) => m.id);
    expect(ids({ allow: [], deny: ["openai/*"] })).toEqual([
      "smart",
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-haiku-4-5",
      "anthropic/claude-opus-4-1",
    ]);
    expect(ids({ allow: ["cheap"], deny: [] })).toEqual(["cheap"]);
  });
});
