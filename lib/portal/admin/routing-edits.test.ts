import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildRouting } from "../../llm/routing/deployments.ts";
import { EMPTY_ROUTING } from "../../llm/routing/config.ts";
import { checkRoutingText, MAX_ROUTING_BYTES, normaliseText, routingView, saveTarget } from "./routing-edits.ts";

const ENV = { OPENAI_API_KEY: "sk-secret-value", POOL_KEY: "sk-pool-secret" };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-edits-"));
  dirs.push(dir);
  return dir;
}

describe("checkRoutingText", () => {
  it("names each problem's line and column, in YAML and in JSON", () => {
    const yaml = checkRoutingText(
      "deployments:\n  - {name: a, provider: nope, model: m}\naliases:\n  smart: {deployments: [missing]}\n",
      "gateway.config.yaml",
      ENV,
    );
    expect(yaml.ok).toBe(false);
    if (yaml.ok) return;
    expect(yaml.error).toBe("2 problems in gateway.config.yaml");
    expect(yaml.problems.map((p) => [p.line, p.column, p.path])).toEqual([
      [2, 25, "deployments[0].provider"],
      [4, 25, "aliases.smart.deployments[0]"],
    ]);
    expect(yaml.problems[1]!.message).toBe('unknown deployment "missing"');

    const json = checkRoutingText(
      '{\n  "deployments": [],\n  "aliases": {\n    "smart": {"deployments": []\n',
      "g.json",
      ENV,
    );
    expect(json.ok).toBe(false);
    if (!json.ok) expect(json.problems[0]!.line).toBeGreaterThanOrEqual(4);
  });

  it("refuses a credential not set in this process, as a start would", () => {
    const result = checkRoutingText(
      '{"deployments": [{"name": "b", "provider": "openai", "model": "gpt-4.1", "credential": "UNSET_KEY"}]}',
      "gateway.config.json",
      ENV,
    );
    expect(result).toMatchObject({
      ok: false,
      problems: [{ line: 1, path: "deployments[0].credential", message: "UNSET_KEY is not set in the environment" }],
    });
  });

  it("keeps a .json file JSON, and takes YAML for a .yaml one", () => {
    const text = "aliases:\n  smart: {deployments: [openai/gpt-4.1]}\n";
    expect(checkRoutingText(text, "gateway.config.json", ENV)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/gateway\.config\.json is a JSON file: write JSON/),
    });
    const yaml = checkRoutingText(text, "conf/routing.yml", ENV);
    expect(yaml.ok && [...yaml.routing.aliases.keys()]).toEqual(["smart"]);
  });

  it("refuses text over the size cap before parsing it", () => {
    const result = checkRoutingText(`{"aliases": {}}${" ".repeat(MAX_ROUTING_BYTES)}`, "gateway.config.json", ENV);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/a routing file may be at most 256 KB/) });
  });

  it("takes an empty file as no aliases", () => {
    const result = checkRoutingText("", "gateway.config.json", ENV);
    expect(result.ok && result.routing.aliases.size).toBe(0);
  });
});

describe("routingView", () => {
  it("with no file: says where a save writes, and lists the implicit deployments with whether their variable is set, never its value", () => {
    const cwd = tempDir();
    const view = routingView(buildRouting(EMPTY_ROUTING, ENV), { env: ENV, cwd });
    expect(view).toMatchObject({ target: "gateway.config.json", format: "json", text: "" });
    expect(view.file).toBeUndefined();
    expect(view.deployments).toContainEqual(
      expect.objectContaining({ name: "openai", credential: "OPENAI_API_KEY", credentialState: "set", implicit: true }),
    );
    expect(JSON.stringify(view)).not.toContain("sk-secret-value");
  });

  it("with a file: its text, format, declared deployments and aliases", () => {
    const cwd = tempDir();
    const text =
      "deployments:\n  - {name: pool, provider: openai, model: gpt-4.1, credential: POOL_KEY}\naliases:\n  smart: {strategy: weighted, deployments: [pool, {name: openai, weight: 2}], retries: 0}\n";
    fs.writeFileSync(path.join(cwd, "routing.yaml"), text);
    const checked = checkRoutingText(text, "routing.yaml", ENV);
    if (!checked.ok) throw new Error(checked.error);
    const view = routingView(checked.routing, { env: ENV, cwd });
    expect(view).toMatchObject({ file: "routing.yaml", target: "routing.yaml", format: "yaml", text });
    expect(view.deployments[0]).toEqual({
      name: "pool",
      provider: "openai",
      model: "gpt-4.1",
      weight: 1,
      credential: "POOL_KEY",
      credentialState: "set",
      implicit: false,
    });
    expect(view.aliases).toEqual([
      {
        name: "smart",
        strategy: "weighted",
        deployments: [
          { name: "pool", weight: 1 },
          { name: "openai", weight: 2 },
        ],
        retries: 0,
      },
    ]);
    expect(JSON.stringify(view)).not.toContain("sk-pool-secret");
  });

  it("lists the guardrail policies: what each does in words, where it checks and the aliases naming it", () => {
    const text = [
      "aliases:",
      "  private: {deployments: [openai], guardrails: mask}",
      "guardrails:",
      "  mask: {checks: [pii], action: redact}",
      "  shield: {checks: [injection, words], action: block, stages: [prompt, answer], words: {terms: [secret plan]}}",
    ].join("\n");
    const checked = checkRoutingText(text, "routing.yaml", ENV);
    if (!checked.ok) throw new Error(checked.error);
    const view = routingView(checked.routing, { env: ENV, cwd: tempDir() });
    expect(view.guardrails).toEqual([
      { name: "mask", does: "Redacts personal data of every kind.", stages: ["prompt"], aliases: ["private"] },
      {
        name: "shield",
        does: expect.stringMatching(/^Blocks likely prompt injections .* and 1 listed term\.$/),
        stages: ["prompt", "answer", "what the research agents read"],
        aliases: [],
      },
    ]);
    // Listed terms are counted, never shown.
    expect(JSON.stringify(view.guardrails)).not.toContain("secret plan");
  });

  it("says a local runner given its origin needs no credential, and an unset variable is not set", () => {
    const routing = buildRouting(
      {
        deployments: [
          { name: "local", provider: "ollama", model: "llama3", origin: "http://10.0.0.2:11434", weight: 1 },
        ],
        aliases: [
          {
            name: "cheap",
            strategy: "fallback",
            deployments: [{ deployment: "local" }, { deployment: "groq/llama-3.3-70b" }],
          },
        ],
        guardrails: new Map(),
      },
      {},
    );
    const states = routingView(routing, { env: {}, cwd: tempDir() }).deployments.map((d) => [
      d.name,
      d.credentialState,
    ]);
    expect(states).toEqual([
      ["local", "not needed"],
      ["groq/llama-3.3-70b", "not set"],
    ]);
  });
});

describe("saveTarget and normaliseText", () => {
  it("writes the file in force, else GATEWAY_CONFIG's path, else ./gateway.config.json", () => {
    const none = buildRouting(EMPTY_ROUTING, {});
    expect(saveTarget({ ...none, file: "a.yaml" }, { env: { GATEWAY_CONFIG: "b.json" }, cwd: "/" })).toBe("a.yaml");
    expect(saveTarget(none, { env: { GATEWAY_CONFIG: " conf/b.yaml " }, cwd: "/" })).toBe("conf/b.yaml");
    expect(saveTarget(none, { env: {}, cwd: "/" })).toBe("gateway.config.json");
  });

  it("turns a textarea's CRLF into the file's LF", () => {
    expect(normaliseText("a\r\nb\rc\n")).toBe("a\nb\nc\n");
  });
});
