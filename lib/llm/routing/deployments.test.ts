import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RoutingConfigError } from "./config.ts";
import { buildRouting, loadRouting, resolveModel } from "./deployments.ts";

const dirs: string[] = [];
function dirWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const POOL = `deployments:
  - {name: oa-1, provider: openai, model: gpt-4.1, credential: OPENAI_KEY_1}
  - {name: oa-2, provider: openai, model: gpt-4.1, credential: OPENAI_KEY_2, weight: 3}
aliases:
  smart:
    strategy: weighted
    deployments: [oa-1, {name: oa-2, weight: 5}, anthropic/claude-sonnet-4-5, groq]
`;
const POOL_ENV = { OPENAI_KEY_1: "a", OPENAI_KEY_2: "b", ANTHROPIC_API_KEY: "c", GROQ_API_KEY: "d" };

describe("loadRouting", () => {
  it("with no file: one deployment per configured provider, named by it, on today's variable; no aliases", () => {
    const routing = loadRouting({ OPENAI_API_KEY: "sk", MISTRAL_API_KEY: "m" }, dirWith({}));
    expect(routing.file).toBeUndefined();
    expect(routing.aliases.size).toBe(0);
    expect([...routing.deployments.values()]).toEqual([
      {
        name: "openai",
        provider: "openai",
        model: "gpt-4.1-mini",
        credential: "OPENAI_API_KEY",
        weight: 1,
        implicit: true,
      },
      {
        name: "mistral",
        provider: "mistral",
        model: "mistral-medium-latest",
        credential: "MISTRAL_API_KEY",
        weight: 1,
        implicit: true,
      },
    ]);
  });

  it("reads ./gateway.config.json, else .yaml, else .yml", () => {
    const json = `{"aliases": {"from-json": {"deployments": ["openai"]}}}`;
    const yaml = `aliases: {from-yaml: {deployments: [openai]}}`;
    const env = { OPENAI_API_KEY: "sk" };
    expect([
      ...loadRouting(env, dirWith({ "gateway.config.json": json, "gateway.config.yaml": yaml })).aliases.keys(),
    ]).toEqual(["from-json"]);
    const fromYaml = loadRouting(env, dirWith({ "gateway.config.yaml": yaml }));
    expect(fromYaml.file).toBe("gateway.config.yaml");
    expect([...fromYaml.aliases.keys()]).toEqual(["from-yaml"]);
    expect([...loadRouting(env, dirWith({ "gateway.config.yml": yaml })).aliases.keys()]).toEqual(["from-yaml"]);
  });

  it("reads the file GATEWAY_CONFIG names, relative to the working directory, and refuses one that is not there", () => {
    const dir = dirWith({ "routing.yaml": POOL });
    const routing = loadRouting({ ...POOL_ENV, GATEWAY_CONFIG: "routing.yaml" }, dir);
    expect(routing.file).toBe("routing.yaml");
    expect(routing.aliases.has("smart")).toBe(true);
    expect(() => loadRouting({ GATEWAY_CONFIG: "missing.yaml" }, dir)).toThrow(
      "GATEWAY_CONFIG names missing.yaml, which does not exist",
    );
  });

  it("stops on a bad file with the line-naming error, checking credentials against the environment given", () => {
    const dir = dirWith({ "gateway.config.yaml": POOL });
    expect(() => loadRouting({ ...POOL_ENV, OPENAI_KEY_2: "" }, dir)).toThrow(RoutingConfigError);
    expect(() => loadRouting({ ...POOL_ENV, OPENAI_KEY_2: "" }, dir)).toThrow(
      "gateway.config.yaml:3:64 deployments[1].credential: OPENAI_KEY_2 is not set in the environment",
    );
  });

  it("with a file: its deployments (a key pool), implicit ones for providers and provider/model, alias weights", () => {
    const routing = loadRouting({ ...POOL_ENV, GATEWAY_CONFIG: "g.yaml" }, dirWith({ "g.yaml": POOL }));
    expect([...routing.deployments.keys()]).toEqual([
      "oa-1",
      "oa-2",
      "anthropic",
      "groq",
      "anthropic/claude-sonnet-4-5",
    ]);
    const smart = routing.aliases.get("smart")!;
    expect(smart.strategy).toBe("weighted");
    expect(
      smart.deployments.map((t) => [
        t.deployment.name,
        t.deployment.provider,
        t.deployment.model,
        t.deployment.credential,
        t.weight,
      ]),
    ).toEqual([
      ["oa-1", "openai", "gpt-4.1", "OPENAI_KEY_1", 1],
      ["oa-2", "openai", "gpt-4.1", "OPENAI_KEY_2", 5],
      ["anthropic/claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5", "ANTHROPIC_API_KEY", 1],
      ["groq", "groq", "llama-3.3-70b-versatile", "GROQ_API_KEY", 1],
    ]);
  });

  it("lets a deployment named after a provider take the place of its implicit one", () => {
    const routing = buildRouting(
      {
        deployments: [{ name: "openai", provider: "openai", model: "gpt-4.1", credential: "OPENAI_KEY_1", weight: 2 }],
        aliases: [],
        guardrails: new Map(),
      },
      { OPENAI_API_KEY: "sk", OPENAI_KEY_1: "a" },
    );
    expect(routing.deployments.get("openai")).toMatchObject({
      model: "gpt-4.1",
      credential: "OPENAI_KEY_1",
      implicit: false,
    });
  });
});

describe("the sample file at the repository root", () => {
  it("parses, with a key pool over two OpenAI credentials and an alias across two providers", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const env = { OPENAI_API_KEY: "a", OPENAI_API_KEY_2: "b", ANTHROPIC_API_KEY: "c" };
    const routing = loadRouting({ ...env, GATEWAY_CONFIG: "gateway.config.example.yaml" }, root);
    const declared = [...routing.deployments.values()].filter((d) => !d.implicit);
    expect(new Set(declared.filter((d) => d.provider === "openai").map((d) => d.credential))).toEqual(
      new Set(["OPENAI_API_KEY", "OPENAI_API_KEY_2"]),
    );
    const providers = [...routing.aliases.values()].map(
      (a) => new Set(a.deployments.map((t) => t.deployment.provider)),
    );
    expect(providers.some((p) => p.has("openai") && p.has("anthropic"))).toBe(true);
  });
});

describe("resolveModel", () => {
  const routing = loadRouting({ ...POOL_ENV, GATEWAY_CONFIG: "g.yaml" }, dirWith({ "g.yaml": POOL }));

  it("sends an alias to its deployments", () => {
    expect(resolveModel(routing, "smart")!.targets.map((t) => t.deployment.name)).toEqual([
      "oa-1",
      "oa-2",
      "anthropic/claude-sonnet-4-5",
      "groq",
    ]);
  });

  it("keeps provider/model working as an implicit deployment, a slash in the model id included", () => {
    expect(resolveModel(routing, "groq/meta-llama/llama-4-scout")!.targets).toEqual([
      {
        deployment: {
          name: "groq/meta-llama/llama-4-scout",
          provider: "groq",
          model: "meta-llama/llama-4-scout",
          credential: "GROQ_API_KEY",
          weight: 1,
          implicit: true,
        },
        weight: 1,
      },
    ]);
  });

  it("leaves bare model ids and unknown providers to today's resolution", () => {
    expect(resolveModel(routing, "gpt-4.1-mini")).toBeUndefined();
    expect(resolveModel(routing, "opena/gpt-4o")).toBeUndefined();
    expect(resolveModel(routing, "openai/")).toBeUndefined();
  });
});
