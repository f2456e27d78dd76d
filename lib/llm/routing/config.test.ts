import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { formatPath, parseRoutingConfig, RoutingConfigError } from "./config.ts";

const ENV = { OPENAI_API_KEY: "sk-a", OPENAI_KEY_B: "sk-b", ANTHROPIC_API_KEY: "sk-ant" };

/** The message a bad file stops start-up with. */
function problem(text: string, file = "gateway.config.yaml", env: Record<string, string> = ENV): string {
  try {
    parseRoutingConfig(text, file, env);
  } catch (err) {
    expect(err).toBeInstanceOf(RoutingConfigError);
    return (err as Error).message;
  }
  throw new Error("the file was accepted");
}

describe("parseRoutingConfig", () => {
  it("reads the issue's JSON form: deployments, aliases of names and {name, weight}", () => {
    const config = parseRoutingConfig(
      JSON.stringify({
        deployments: [
          { name: "oa-1", provider: "openai", model: "gpt-4.1", credential: "OPENAI_API_KEY" },
          { name: "oa-2", provider: "openai", model: "gpt-4.1", credential: "OPENAI_KEY_B", weight: 3 },
          { name: "claude", provider: "anthropic", model: "claude-sonnet-4-5", origin: "https://proxy.example/" },
        ],
        aliases: {
          smart: { strategy: "fallback", deployments: ["oa-1", { name: "claude", weight: 2 }] },
          pool: { strategy: "weighted", deployments: ["oa-1", "oa-2"] },
        },
      }),
      "gateway.config.json",
      ENV,
    );
    expect(config.file).toBe("gateway.config.json");
    expect(config.deployments).toEqual([
      { name: "oa-1", provider: "openai", model: "gpt-4.1", credential: "OPENAI_API_KEY", weight: 1 },
      { name: "oa-2", provider: "openai", model: "gpt-4.1", credential: "OPENAI_KEY_B", weight: 3 },
      { name: "claude", provider: "anthropic", model: "claude-sonnet-4-5", origin: "https://proxy.example", weight: 1 },
    ]);
    expect(config.aliases).toEqual([
      {
        name: "smart",
        strategy: "fallback",
        deployments: [{ deployment: "oa-1" }, { deployment: "claude", weight: 2 }],
      },
      { name: "pool", strategy: "weighted", deployments: [{ deployment: "oa-1" }, { deployment: "oa-2" }] },
    ]);
  });

  it("reads YAML with the richer fields: limits, price, retries, timeout, underscore strategies", () => {
    const config = parseRoutingConfig(
      `deployments:
  - name: oa
    provider: openai
    model: gpt-4.1-mini
    rpm: 500
    tpm: 200000
    price: { input: 0.3, output: 1.2 }
aliases:
  quick:
    strategy: least_in_flight
    retries: 2
    timeout_ms: 20000
    deployments: [oa, anthropic/claude-haiku-4-5]
`,
      "gateway.config.yaml",
      ENV,
    );
    expect(config.deployments[0]).toMatchObject({ rpm: 500, tpm: 200000, price: [0.3, 1.2] });
    expect(config.aliases[0]).toEqual({
      name: "quick",
      strategy: "least-in-flight",
      retries: 2,
      timeoutMs: 20000,
      deployments: [{ deployment: "oa" }, { deployment: "anthropic/claude-haiku-4-5" }],
    });
  });

  it("takes an empty file as no deployments and no aliases, and defaults the strategy to fallback", () => {
    expect(parseRoutingConfig("", "gateway.config.yaml", ENV)).toEqual({
      file: "gateway.config.yaml",
      deployments: [],
      aliases: [],
      guardrails: new Map(),
    });
    const config = parseRoutingConfig(`{"aliases": {"a": {"deployments": ["openai"]}}}`, "g.json", ENV);
    expect(config.aliases[0]!.strategy).toBe("fallback");
  });

  it("reads guardrail policies, every personal-data kind unless some are named, and an alias's policy", () => {
    const config = parseRoutingConfig(
      JSON.stringify({
        aliases: { safe: { deployments: ["openai"], guardrails: "mask" } },
        guardrails: {
          mask: { checks: ["pii"], action: "redact" },
          cards: { checks: ["pii"], action: "block", pii: { kinds: ["card", "iban"] } },
          shield: { checks: ["pii", "injection"], action: "flag", injection: { threshold: 0.7 } },
        },
      }),
      "g.json",
      ENV,
    );
    expect(config.guardrails.get("shield")).toMatchObject({ checks: ["pii", "injection"], injectionThreshold: 0.7 });
    expect(config.guardrails.get("mask")!.injectionThreshold).toBe(0.5);
    expect(config.aliases[0]!.guardrails).toBe("mask");
    expect(config.guardrails.get("mask")).toMatchObject({ name: "mask", checks: ["pii"], action: "redact" });
    expect(config.guardrails.get("mask")!.piiKinds.size).toBe(7);
    expect([...config.guardrails.get("cards")!.piiKinds]).toEqual(["card", "iban"]);
  });

  it("reads every guardrails example docs/guardrails.md shows, as an operator would copy it", () => {
    const doc = fs.readFileSync(new URL("../../../docs/guardrails.md", import.meta.url), "utf8");
    const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      const config = parseRoutingConfig(example, "g.yaml", ENV);
      expect(config.guardrails.size, example).toBeGreaterThan(0);
    }
  });

  it("names each problem of a guardrails section on its line", () => {
    const text = [
      "aliases:",
      "  safe:",
      "    deployments: [openai]",
      "    guardrails: nowhere",
      "guardrails:",
      "  loud:",
      "    checks: [pii]",
      "    action: shout",
      "  empty:",
      "    checks: []",
      "    action: flag",
      "  odd:",
      "    checks: [injection]",
      "    action: block",
      "    injection: {threshold: 2}",
      "  bare:",
      "    checks: [words, length]",
      "    action: flag",
      "  patterned:",
      "    checks: [words]",
      "    action: block",
      "    words:",
      "      patterns: ['order-\\d{6}', '(a+)+$', '(', 'x*']",
    ].join("\n");
    const problems = () => {
      try {
        parseRoutingConfig(text, "g.yaml", ENV);
      } catch (e) {
        return (e as RoutingConfigError).problems.map((p) => `${p.line} ${p.path}: ${p.message}`);
      }
      return [];
    };
    expect(problems()).toEqual([
      "8 guardrails.loud.action: one of redact, block, flag",
      "10 guardrails.empty.checks: a policy needs at least one check",
      "15 guardrails.odd.injection.threshold: Too big: expected number to be <=1",
      "17 guardrails.bare.words: the words check needs words.terms, words.patterns or words.profanity",
      "17 guardrails.bare.length: the length check needs length.max_chars",
      "23 guardrails.patterned.words.patterns[1]: nested repetition (such as (a+)+) could take exponential time on some input",
      expect.stringMatching(/^23 guardrails\.patterned\.words\.patterns\[2\]: not a regular expression: /),
      "23 guardrails.patterned.words.patterns[3]: matches empty text, so it would fire on every prompt",
    ]);
    const missing = text.replace(/guardrails:\n {2}loud:[\s\S]*/, "guardrails: {}");
    expect(() => parseRoutingConfig(missing, "g.yaml", ENV)).toThrow(
      /aliases\.safe\.guardrails: no guardrail policy "nowhere"/,
    );
  });

  it("names the file, line and column, path and problem of an unknown alias target", () => {
    const text = `deployments:
  - name: oa
    provider: openai
    model: gpt-4.1
aliases:
  smart:
    deployments:
      - oa
      - openai/gpt-4.1-mini
      - gpt-x
`;
    expect(problem(text)).toBe('gateway.config.yaml:10:9 aliases.smart.deployments[2]: unknown deployment "gpt-x"');
  });

  it("rejects unknown keys at their own line, top level and nested", () => {
    const text = `deployments:
  - name: oa
    provider: openai
    model: gpt-4.1
    wieght: 2
routes: {}
`;
    expect(problem(text).split("\n")).toEqual([
      'gateway.config.yaml:5:5 deployments[0].wieght: unknown key "wieght"',
      'gateway.config.yaml:6:1 routes: unknown key "routes"',
    ]);
  });

  it("gives positions in a JSON file too", () => {
    const text = `{
  "deployments": [
    {"name": "oa", "provider": "openia", "model": "gpt-4.1"}
  ]
}`;
    expect(problem(text, "gateway.config.json")).toMatch(
      /^gateway\.config\.json:3:32 deployments\[0\]\.provider: unknown provider "openia": use one of xai, openai, /,
    );
  });

  it("reports a syntax error with its position", () => {
    expect(problem(`{"deployments": [}`, "gateway.config.json")).toMatch(/^gateway\.config\.json:1:\d+ /);
    expect(problem("aliases:\n  a: [\n", "g.yaml")).toMatch(/^g\.yaml:\d+:\d+ /);
  });

  it("refuses a value where the name of a variable belongs, and says so without echoing it in the path", () => {
    const text = `deployments:\n  - {name: oa, provider: openai, model: gpt-4.1, credential: sk-live-123}\n`;
    expect(problem(text)).toMatch(/deployments\[0\]\.credential: the name of an environment variable/);
  });

  it("requires each credential to be set when the environment is given, naming the variable", () => {
    const text = `deployments:
  - {name: oa, provider: openai, model: gpt-4.1, credential: OPENAI_KEY_C}
  - {name: mi, provider: mistral, model: mistral-small-latest}
aliases:
  g: {deployments: [groq/llama-3.1-8b-instant]}
`;
    expect(problem(text).split("\n")).toEqual([
      "gateway.config.yaml:2:62 deployments[0].credential: OPENAI_KEY_C is not set in the environment",
      'gateway.config.yaml:3:5 deployments[1]: MISTRAL_API_KEY is not set in the environment (deployment "mi" has no credential of its own)',
      'gateway.config.yaml:5:21 aliases.g.deployments[0]: "groq/llama-3.1-8b-instant" needs GROQ_API_KEY, which is not set in the environment',
    ]);
    // Without an environment (an editor checking a draft) the same file passes.
    expect(parseRoutingConfig(text, "g.yaml").deployments).toHaveLength(2);
  });

  it("lets a keyless local runner with its own origin go without a credential", () => {
    const text = `deployments: [{name: box, provider: ollama, model: llama3.2, origin: "http://10.0.0.5:11434"}]`;
    expect(parseRoutingConfig(text, "g.yaml", {}).deployments[0]!.origin).toBe("http://10.0.0.5:11434");
  });

  it("refuses names that would mean two things", () => {
    const text = `deployments:
  - {name: oa, provider: openai, model: gpt-4.1}
  - {name: oa, provider: openai, model: gpt-4.1-mini}
  - {name: openai/fast, provider: openai, model: gpt-4.1-nano}
  - {name: anthropic, provider: openai, model: gpt-4.1-nano}
aliases:
  oa: {deployments: [oa]}
  openai/gpt-4.1: {deployments: [oa]}
  anthropic: {deployments: [oa]}
  twice: {deployments: [oa, oa]}
`;
    expect(problem(text).split("\n")).toEqual([
      'gateway.config.yaml:3:12 deployments[1].name: deployment "oa" is also deployments[0]',
      'gateway.config.yaml:4:12 deployments[2].name: "openai/fast" is how an alias names openai\'s model without a deployment: name this deployment otherwise',
      'gateway.config.yaml:5:12 deployments[3].name: "anthropic" is a provider\'s name: only a deployment of anthropic may take it',
      'gateway.config.yaml:7:3 aliases.oa: "oa" names both an alias and a deployment: a name means one thing',
      'gateway.config.yaml:8:3 aliases["openai/gpt-4.1"]: alias "openai/gpt-4.1" would hide openai\'s model of that name: drop the "openai/" prefix',
      'gateway.config.yaml:9:3 aliases.anthropic: alias "anthropic" is a provider\'s name: choose another',
      'gateway.config.yaml:10:29 aliases.twice.deployments[1]: deployment "oa" is listed twice',
    ]);
  });

  it("refuses weights of 0 or less, unknown strategies and an alias without deployments", () => {
    const text = `deployments:
  - {name: oa, provider: openai, model: gpt-4.1, weight: 0}
aliases:
  a: {strategy: random, deployments: [{name: oa, weight: -1}]}
  b: {deployments: []}
`;
    expect(problem(text).split("\n")).toEqual([
      "gateway.config.yaml:2:58 deployments[0].weight: a weight is a number above 0",
      "gateway.config.yaml:4:17 aliases.a.strategy: one of fallback, weighted, least-in-flight, lowest-latency",
      "gateway.config.yaml:4:58 aliases.a.deployments[0].weight: a weight is a number above 0",
      "gateway.config.yaml:5:20 aliases.b.deployments: an alias needs at least one deployment",
    ]);
  });

  it("reads an alias's cache policy: whose keys share it, one pool when shared, never both said at once", () => {
    const aliases = (cache: object) =>
      JSON.stringify({
        deployments: [{ name: "oa", provider: "openai", model: "gpt-4.1", credential: "OPENAI_API_KEY" }],
        aliases: { a: { deployments: ["oa"], cache } },
      });
    const policy = (cache: object) => parseRoutingConfig(aliases(cache), "g.json", ENV).aliases[0]!.cache;
    expect(policy({ max_age: 60 })).toEqual({ maxAgeS: 60, scope: "key" });
    expect(policy({ max_age: 60, scope: "team" })).toEqual({ maxAgeS: 60, scope: "team" });
    expect(policy({ max_age: 60, shared: true })).toEqual({ maxAgeS: 60, scope: "shared" });
    expect(problem(aliases({ max_age: 60, shared: true, scope: "user" }), "g.json")).toMatch(
      /aliases\.a\.cache\.scope: shared makes one pool for every key/,
    );
    expect(problem(aliases({ max_age: 60, scope: "everyone" }), "g.json")).toMatch(/aliases\.a\.cache\.scope/);
  });

  it("says a missing field is required, pointing at the entry that lacks it", () => {
    expect(problem(`deployments:\n  - {name: oa, provider: openai}\n`)).toBe(
      "gateway.config.yaml:2:5 deployments[0].model: required",
    );
  });
});

describe("formatPath", () => {
  it("quotes keys that would read ambiguously", () => {
    expect(formatPath(["aliases", "gpt-4.1", "deployments", 0])).toBe('aliases["gpt-4.1"].deployments[0]');
    expect(formatPath(["aliases", "smart-1", "retries"])).toBe("aliases.smart-1.retries");
  });
});
