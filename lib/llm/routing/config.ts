import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from "yaml";
import { z } from "zod";
import { CHAT_PROVIDER_NAMES, providerEntry } from "../../upstream/llm-catalogue.ts";
import { guardrailPolicySchema, toPolicy, type GuardrailPolicy } from "../../guardrails/policy.ts";
import type { Price } from "../../usage/prices.ts";

/**
 * The operator's routing file (`gateway.config.json` or `.yaml`): deployments (a provider, a model and
 * the credential to call it with) and aliases over them, which callers name as the model.
 *
 * Names: a caller's model is an alias, else `provider/model` as today. So an alias may not be named
 * `<provider>/…` (it would hide that provider's models), nor be a provider's name, nor share its name
 * with a deployment: aliases and deployments are one namespace, so a name in a log or an error means one
 * thing. A deployment may not be named `<provider>/…` either: that is how an alias names a provider's
 * model without declaring it (the implicit deployment, on the provider's own credential). A deployment
 * named after a provider must be of that provider, and replaces its implicit deployment (see
 * deployments.ts). An alias named like a bare model id (`gpt-4.1`) takes that name: aliases are looked up
 * first.
 */

export const STRATEGIES = ["fallback", "weighted", "least-in-flight", "lowest-latency"] as const;
export type Strategy = (typeof STRATEGIES)[number];

export type DeploymentConfig = {
  name: string;
  provider: string;
  model: string;
  /** The environment variable holding the key; absent: the provider's own (OPENAI_API_KEY, …). */
  credential?: string;
  /** Where the provider's API is; absent: the provider's origin (or UPSTREAM_<NAME>_URL) as today. */
  origin?: string;
  weight: number;
  /** This deployment's own requests and tokens per minute (the provider's limits on this key). */
  rpm?: number;
  tpm?: number;
  /** USD per million tokens, [input, output], in place of the price table's for this model. */
  price?: Price;
};

export type AliasTarget = {
  deployment: string;
  /** Within this alias; absent: the deployment's own weight. */
  weight?: number;
};

export type AliasConfig = {
  name: string;
  strategy: Strategy;
  deployments: AliasTarget[];
  /** Further attempts after a failed one; absent: the router's default. */
  retries?: number;
  /** The most one attempt may take; absent: the router's default. */
  timeoutMs?: number;
  /** The response cache's policy for calls to the alias (docs/cache.md); absent: only when a request asks. */
  cache?: AliasCachePolicy;
  /** The guardrail policy for calls to the alias by keys without one of their own; absent: none. */
  guardrails?: string;
};

/**
 * An alias's response cache: a call without a Cache-Control header of its own reads answers up to
 * `maxAgeS` old and keeps its answer; `shared` makes the alias's entries one pool for every key, which
 * only the operator can choose (by default no key reads another owner's answers).
 */
export type AliasCachePolicy = { maxAgeS: number; scope: CacheScope; semantic?: SemanticPolicy };

/** Whose answers a key's policy may read and fill: its lineage's own, its user's keys', or its team's. */
export const KEY_CACHE_SCOPES = ["key", "user", "team"] as const;

/** As a key's, or "shared": one pool for every key calling the alias, which only the operator's file can set. */
export type CacheScope = (typeof KEY_CACHE_SCOPES)[number] | "shared";

/**
 * An alias's semantic cache: a question whose prompt's embedding is close enough (cosine similarity at
 * least `threshold`) to one answered before gets that answer. Absent fields take the LLM_SEMANTIC_CACHE_*
 * defaults. Only questions without tools and at temperature 0 are matched, unless `tools` or
 * `anyTemperature` says otherwise: a near question is a fair stand-in only for a deterministic answer.
 */
export type SemanticPolicy = { threshold?: number; embeddingModel?: string; tools: boolean; anyTemperature: boolean };

export type RoutingConfig = {
  /** The file it was read from; absent when there is none. */
  file?: string;
  deployments: DeploymentConfig[];
  aliases: AliasConfig[];
  /** The guardrail policies keys and aliases name (docs/guardrails.md). */
  guardrails: ReadonlyMap<string, GuardrailPolicy>;
};

export const EMPTY_ROUTING: RoutingConfig = { deployments: [], aliases: [], guardrails: new Map() };

/** One problem in the file, where it is. */
export type RoutingProblem = { line: number; column: number; path: string; message: string };

/** A file that cannot be used: its message names each problem as `file:line:column path: problem`. */
export class RoutingConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: RoutingProblem[],
  ) {
    super(problems.map((p) => `${file}:${p.line}:${p.column} ${p.path ? `${p.path}: ` : ""}${p.message}`).join("\n"));
    this.name = "RoutingConfigError";
  }
}

const positiveWeight = z.number().positive({ error: "a weight is a number above 0" });
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;
const nameSchema = z.string().regex(NAME, {
  error: "a name is 1-128 letters, digits and . _ : @ / -, starting with a letter or digit",
});

const deploymentSchema = z.strictObject({
  name: nameSchema,
  provider: z.string(),
  model: z.string().min(1).max(256),
  credential: z
    .string()
    .regex(ENV_NAME, { error: "the name of an environment variable (A-Z, 0-9, _), never the key itself" })
    .optional(),
  origin: z.url({ protocol: /^https?$/, error: "an http(s) origin such as https://api.openai.com" }).optional(),
  weight: positiveWeight.default(1),
  rpm: z.number().int().positive().optional(),
  tpm: z.number().int().positive().optional(),
  price: z.strictObject({ input: z.number().min(0), output: z.number().min(0) }).optional(),
});

const targetSchema = z.preprocess(
  (v) => (typeof v === "string" ? { name: v } : v),
  z.strictObject(
    { name: z.string(), weight: positiveWeight.optional() },
    {
      error: (issue) => (issue.code === "invalid_type" ? "a deployment's name, or {name, weight}" : undefined),
    },
  ),
);

const strategySchema = z
  .string()
  .transform((s) => s.replaceAll("_", "-"))
  .pipe(z.enum(STRATEGIES, { error: `one of ${STRATEGIES.join(", ")}` }));

const aliasSchema = z.strictObject({
  strategy: strategySchema.default("fallback"),
  deployments: z.array(targetSchema).min(1, { error: "an alias needs at least one deployment" }),
  retries: z.number().int().min(0).max(10).optional(),
  timeout_ms: z.number().int().positive().max(3_600_000).optional(),
  cache: z
    .strictObject({
      max_age: z.number().int().min(1).max(31_536_000),
      shared: z.boolean().default(false),
      scope: z.enum(KEY_CACHE_SCOPES).optional(),
      semantic: z
        .union([
          z.boolean(),
          z.strictObject({
            threshold: z.number().gt(0).max(1).optional(),
            embedding_model: z.string().min(1).max(200).optional(),
            tools: z.boolean().default(false),
            any_temperature: z.boolean().default(false),
          }),
        ])
        .optional(),
    })
    .refine((cache) => !(cache.shared && cache.scope), {
      error: "shared makes one pool for every key: leave out scope, which says whose keys share otherwise",
      path: ["scope"],
    })
    .optional(),
  guardrails: z.string().optional(),
});

const fileSchema = z.strictObject({
  // Lets an editor find a JSON schema for the file; not read.
  $schema: z.string().optional(),
  deployments: z.array(deploymentSchema).default([]),
  aliases: z.record(nameSchema, aliasSchema).default({}),
  guardrails: z.record(nameSchema, guardrailPolicySchema).default({}),
});

type FileShape = z.output<typeof fileSchema>;
type Issue = { path: PropertyKey[]; message: string; atKey?: boolean };

/**
 * The routing file's text as a RoutingConfig, or a RoutingConfigError naming each problem's line. JSON is
 * read as the YAML it also is, so both give positions. With `env`, every credential a deployment needs
 * must be set in it; without, that check is left out (an editor checking a draft).
 */
export function parseRoutingConfig(
  text: string,
  fileName: string,
  env?: Record<string, string | undefined>,
): RoutingConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (offset: number | undefined, path: PropertyKey[], message: string): RoutingProblem => {
    const pos = lines.linePos(offset ?? 0);
    return { line: pos.line, column: pos.col, path: formatPath(path), message };
  };
  if (doc.errors.length) {
    throw new RoutingConfigError(
      fileName,
      doc.errors.map((e) => at(e.pos[0], [], e.message)),
    );
  }
  const parsed = fileSchema.safeParse(doc.toJS() ?? {}, {
    error: (issue) => (issue.input === undefined && issue.code === "invalid_type" ? "required" : undefined),
  });
  const issues: Issue[] = parsed.success ? crossCheck(parsed.data, env) : parsed.error.issues.flatMap(toIssues);
  if (issues.length) {
    throw new RoutingConfigError(
      fileName,
      issues.map((i) => at(locate(doc, i.path, i.atKey === true), i.path, i.message)),
    );
  }
  return toConfig(parsed.data!, fileName);
}

function toIssues(issue: z.core.$ZodIssue): Issue[] {
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ path: [...issue.path, key], message: `unknown key "${key}"`, atKey: true }));
  }
  return [{ path: issue.path, message: issue.message, atKey: issue.code === "invalid_key" }];
}

/** What the schema alone cannot see: names that clash, references to nothing, credentials not set. */
function crossCheck(file: FileShape, env?: Record<string, string | undefined>): Issue[] {
  const issues: Issue[] = [];
  const declared = new Map<string, number>();
  file.deployments.forEach((d, i) => {
    const path = ["deployments", i];
    const first = declared.get(d.name);
    if (first !== undefined) {
      issues.push({ path: [...path, "name"], message: `deployment "${d.name}" is also deployments[${first}]` });
    } else declared.set(d.name, i);
    if (providerPrefix(d.name)) {
      issues.push({
        path: [...path, "name"],
        message: `"${d.name}" is how an alias names ${providerPrefix(d.name)}'s model without a deployment: name this deployment otherwise`,
      });
    }
    if (providerEntry(d.name) && d.name !== d.provider) {
      issues.push({
        path: [...path, "name"],
        message: `"${d.name}" is a provider's name: only a deployment of ${d.name} may take it`,
      });
    }
    const entry = providerEntry(d.provider);
    if (!entry) {
      issues.push({
        path: [...path, "provider"],
        message: `unknown provider "${d.provider}": use one of ${CHAT_PROVIDER_NAMES.join(", ")}`,
      });
      return;
    }
    if (!env) return;
    if (d.credential !== undefined) {
      if (!isSet(env, d.credential))
        issues.push({ path: [...path, "credential"], message: `${d.credential} is not set in the environment` });
    } else if (!(entry.keyless && d.origin) && !isSet(env, entry.credential)) {
      issues.push({
        path,
        message: `${entry.credential} is not set in the environment (deployment "${d.name}" has no credential of its own)`,
      });
    }
  });
  for (const [alias, spec] of Object.entries(file.aliases)) {
    const path = ["aliases", alias];
    const clash = aliasClash(alias, declared);
    if (clash) issues.push({ path, message: clash, atKey: true });
    if (spec.guardrails !== undefined && !Object.hasOwn(file.guardrails, spec.guardrails))
      issues.push({
        path: [...path, "guardrails"],
        message: `no guardrail policy "${spec.guardrails}" in "guardrails"`,
      });
    const listed = new Set<string>();
    spec.deployments.forEach((target, i) => {
      const at = [...path, "deployments", i];
      if (listed.has(target.name)) issues.push({ path: at, message: `deployment "${target.name}" is listed twice` });
      listed.add(target.name);
      if (declared.has(target.name)) return;
      const provider = providerPrefix(target.name) ?? (providerEntry(target.name) ? target.name : undefined);
      if (!provider) {
        issues.push({ path: at, message: `unknown deployment "${target.name}"` });
        return;
      }
      const entry = providerEntry(provider)!;
      if (target.name === provider + "/") {
        issues.push({ path: at, message: `"${target.name}" names no model: write ${provider}/<model>` });
      } else if (env && !isSet(env, entry.credential)) {
        issues.push({
          path: at,
          message: `"${target.name}" needs ${entry.credential}, which is not set in the environment`,
        });
      }
    });
  }
  // The moderation check calls OpenAI on the gateway's own OpenAI key (lib/guardrails/moderation.ts).
  for (const [name, policy] of Object.entries(file.guardrails))
    if (env && policy.checks.includes("moderation") && !isSet(env, "OPENAI_API_KEY"))
      issues.push({
        path: ["guardrails", name, "checks"],
        message: "the moderation check needs OPENAI_API_KEY, which is not set in the environment",
      });
  return issues;
}

function aliasClash(alias: string, declared: Map<string, number>): string | undefined {
  const provider = providerPrefix(alias);
  if (provider) return `alias "${alias}" would hide ${provider}'s model of that name: drop the "${provider}/" prefix`;
  if (providerEntry(alias)) return `alias "${alias}" is a provider's name: choose another`;
  if (declared.has(alias)) return `"${alias}" names both an alias and a deployment: a name means one thing`;
  return undefined;
}

/** The provider a `provider/…` name starts with, if it is one the gateway knows. */
export function providerPrefix(name: string): string | undefined {
  const slash = name.indexOf("/");
  if (slash <= 0) return undefined;
  const provider = name.slice(0, slash);
  return providerEntry(provider) ? provider : undefined;
}

function isSet(env: Record<string, string | undefined>, variable: string): boolean {
  return Boolean(env[variable]?.trim());
}

function toConfig(file: FileShape, fileName: string): RoutingConfig {
  return {
    file: fileName,
    deployments: file.deployments.map((d) => ({
      name: d.name,
      provider: d.provider,
      model: d.model,
      weight: d.weight,
      ...(d.credential !== undefined && { credential: d.credential }),
      ...(d.origin !== undefined && { origin: d.origin.replace(/\/+$/, "") }),
      ...(d.rpm !== undefined && { rpm: d.rpm }),
      ...(d.tpm !== undefined && { tpm: d.tpm }),
      ...(d.price !== undefined && { price: [d.price.input, d.price.output] as const }),
    })),
    aliases: Object.entries(file.aliases).map(([name, a]) => ({
      name,
      strategy: a.strategy,
      deployments: a.deployments.map((t) => ({
        deployment: t.name,
        ...(t.weight !== undefined && { weight: t.weight }),
      })),
      ...(a.retries !== undefined && { retries: a.retries }),
      ...(a.timeout_ms !== undefined && { timeoutMs: a.timeout_ms }),
      ...(a.cache !== undefined && { cache: aliasCache(a.cache) }),
      ...(a.guardrails !== undefined && { guardrails: a.guardrails }),
    })),
    guardrails: new Map(Object.entries(file.guardrails).map(([name, spec]) => [name, toPolicy(name, spec)])),
  };
}

function aliasCache(cache: z.output<typeof aliasSchema>["cache"] & object): AliasCachePolicy {
  const policy: AliasCachePolicy = { maxAgeS: cache.max_age, scope: cache.shared ? "shared" : (cache.scope ?? "key") };
  const semantic = cache.semantic === true ? { tools: false, any_temperature: false } : cache.semantic || undefined;
  if (semantic)
    policy.semantic = {
      ...(semantic.threshold !== undefined && { threshold: semantic.threshold }),
      ...(semantic.embedding_model !== undefined && { embeddingModel: semantic.embedding_model }),
      tools: semantic.tools,
      anyTemperature: semantic.any_temperature,
    };
  return policy;
}

/** `aliases.smart.deployments[2]`; a key that would read ambiguously is quoted: `aliases["gpt-4.1"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (/^[\w$-]+$/.test(String(seg))) out += out ? `.${String(seg)}` : String(seg);
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/** The offset of the node at `path` (its key, with `atKey`), or of the nearest ancestor that exists. */
function locate(doc: Document, path: readonly PropertyKey[], atKey: boolean): number | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const [i, seg] of path.entries()) {
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      next = (atKey && i === path.length - 1) || pair.value === null ? pair.key : pair.value;
    } else if (isSeq(node) && typeof seg === "number") {
      next = node.items[seg];
    }
    if (next === undefined || rangeStart(next) === undefined) break;
    node = next;
    offset = rangeStart(node);
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}
