import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { SCOPE_AREAS, type ConsolePolicy } from "./gateway/keys/record.ts";
import type { BudgetCeilings } from "./usage/budgets.ts";
import { parseTrustedProxies, type TrustedProxies } from "./gateway/http/trusted-proxies.ts";
import type { KeyApprovalPolicy } from "./gateway/keys/approval.ts";
import { loadKeyApproval, loadOperatorEmails } from "./portal/config.ts";
import { loadRouting, type Routing } from "./llm/routing/deployments.ts";
import { OWNER_KEY_POLICIES, type OwnerKeyPolicy } from "./llm/routing/owner-keys.ts";
import { secretBoxFromEnv, type SecretBox } from "./llm/routing/secret-box.ts";
import { otlpMetricsSettings, type OtlpMetricsSettings } from "./observability/metrics-settings.ts";
import { tracingSettings, type TracingSettings } from "./observability/settings.ts";
import { traceUrlTemplate } from "./observability/trace-link.ts";

const positiveInt = z.coerce.number().int().positive();

/** The variables loadConfig reads; docs/configuration.md's defaults are checked against this (lib/config-docs.ts). */
export const envSchema = z.object({
  NODE_ENV: z.string().default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./.data"),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_URL: z.string().url().optional(),
  UPSTASH_REDIS_REST_TOKEN: z.string().optional(),
  MAX_BODY_BYTES: positiveInt.default(10 * 1024 * 1024),
  LIMIT_DAY: positiveInt.default(10_000),
  LIMIT_MINUTE: positiveInt.default(100),
  LIMIT_CONCURRENCY: positiveInt.default(10),
  LIMIT_REDIS_TIMEOUT_MS: positiveInt.default(150),
  METER_FLUSH_MS: positiveInt.default(1000),
  // Rollup rows take 13 parameters each; 5,000 keeps a batch under PostgreSQL's 65,535.
  METER_BATCH: positiveInt.max(5000).default(500),
  // Events held while the database is away; past it the oldest are dropped (and counted).
  METER_MAX_BUFFERED: positiveInt.default(1_000_000),
  // Request-log rows one key may add a second per instance (bursts of ten seconds' worth); 0: every request.
  REQUEST_LOG_ROWS_PER_KEY_SECOND: z.coerce.number().int().min(0).default(100),
  SHUTDOWN_GRACE_MS: positiveInt.default(15_000),
  KEY_REFRESH_MS: positiveInt.default(500),
  MAX_KEYS_PER_USER: positiveInt.max(1000).default(10),
  // Console keys come with every sign-up, so they get less than an approved key: no N quotas for N mailboxes.
  CONSOLE_KEY_SCOPES: z
    .string()
    .default("aac,datavis,generate,llm,orchestrate,trove")
    .transform((v) =>
      v.trim() === "all"
        ? []
        : v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
    )
    .pipe(
      z.array(z.enum(SCOPE_AREAS, { message: `CONSOLE_KEY_SCOPES takes areas (${SCOPE_AREAS.join(", ")}) or "all"` })),
    ),
  CONSOLE_LIMIT_DAY: positiveInt.default(1000),
  CONSOLE_LIMIT_MINUTE: positiveInt.default(60),
  CONSOLE_LIMIT_CONCURRENCY: positiveInt.default(4),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  METRICS_TOKEN: z.string().optional(),
  METRICS_PER_KEY: z.enum(["true", "false"]).default("false"),
  PROXY_MAX_BYTES: positiveInt.default(10 * 1024 * 1024),
  PROXY_TIMEOUT_MS: positiveInt.default(15_000),
  PROXY_RATE_PER_MINUTE: positiveInt.default(60),
  PROXY_ALLOW_PRIVATE_FOR_TESTS: z.string().optional(),
  PROXY_MAX_CONCURRENT: positiveInt.default(64),
  TRUST_PROXY: z.string().optional(),
  UPSTREAM_CA_FILE: z.string().optional(),
  // Read where bodies are read (lib/upstream/capped-body.ts); listed here so a bad value stops start-up.
  UPSTREAM_MAX_BYTES: positiveInt.optional(),
  // Read where chat calls start (lib/llm/chat.ts); listed here so a bad value stops start-up.
  LLM_TIMEOUT_MS: positiveInt.optional(),
  // The response cache of model answers (lib/llm/cache/): how long an answer is kept, the largest kept,
  // and what the in-process store holds in all (Redis, when REDIS_URL is set, keeps its own bounds).
  LLM_CACHE_TTL_SECONDS: positiveInt.default(86_400),
  LLM_CACHE_MAX_ENTRY_BYTES: positiveInt.default(1024 * 1024),
  LLM_CACHE_MAX_BYTES: positiveInt.default(64 * 1024 * 1024),
  // The semantic cache (lib/llm/cache/semantic/), for aliases whose policy turns it on: the embedding
  // deployment a prompt is embedded with (an alias or provider/model), the cosine similarity a neighbour
  // needs to answer, and how many vectors the in-process index holds before the oldest go.
  // A response-cache hit still counts against the key's day limit and request budget; "true" takes it
  // back out of the minute window, so a client replaying cached questions is not throttled by them.
  LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT: z.enum(["true", "false"]).default("false"),
  LLM_SEMANTIC_CACHE_EMBEDDING_MODEL: z.string().min(1).default("openai/text-embedding-3-small"),
  LLM_SEMANTIC_CACHE_THRESHOLD: z.coerce.number().gt(0).max(1).default(0.95),
  LLM_SEMANTIC_CACHE_MAX_ENTRIES: positiveInt.default(100_000),
  // Model routing's circuit breakers (lib/llm/routing/breaker.ts): failures within 30 s that open one, and how long it stays open.
  GATEWAY_BREAKER_THRESHOLD: positiveInt.optional(),
  GATEWAY_BREAKER_COOLDOWN_MS: positiveInt.optional(),
  // Provider features that cost beyond tokens, passed through only when listed (lib/llm/compat/passthrough.ts).
  LLM_PASSTHROUGH_FEATURES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(
          z.string().regex(/^[a-z0-9_.:-]{1,80}$/, {
            message: "LLM_PASSTHROUGH_FEATURES takes feature names such as web_search or service_tier:priority",
          }),
        )
        .max(100),
    ),
  // Unset: a browser is looked for where it is usually installed (lib/chromium-path.ts).
  CHROMIUM_PATH: z.string().optional(),
  OLLAMA_ALLOW_PRIVATE_HOSTS: z.enum(["true", "false"]).default("false"),
  OLLAMA_HOSTS_PER_KEY: positiveInt.max(100).default(5),
  SCREENSHOT_CONCURRENCY: positiveInt.default(2),
  SCREENSHOT_QUEUE: z.coerce.number().int().min(0).default(8),
  SCREENSHOT_TIMEOUT_MS: positiveInt.default(45_000),
  JOBS_CONCURRENCY: positiveInt.max(1000).default(4),
  JOBS_QUEUED_PER_KEY: positiveInt.max(100_000).default(20),
  JOBS_RUNNING_PER_KEY: positiveInt.max(1000).default(2),
  BATCH_ITEMS_PER_DAY: positiveInt.default(5000),
  JOB_WORKERS: z.enum(["inline", "separate"]).default("inline"),
  RESPONSES_RETENTION_DAYS: positiveInt.max(3650).default(30),
  REQUEST_LOG_RETENTION_DAYS: positiveInt.max(3650).default(7),
  REQUEST_LOG_BODIES: z.enum(["true", "false"]).default("false"),
  REQUEST_LOG_BODY_BYTES: positiveInt.max(1_048_576).default(16_384),
  // The most a key's owner may set as a monthly budget, per metric (default: 31 days at the daily limit).
  BUDGET_MAX_REQUESTS: positiveInt.optional(),
  BUDGET_MAX_TOKENS: positiveInt.default(100_000_000),
  BUDGET_MAX_COST_USD: z.coerce.number().positive().max(1_000_000).default(100),
  BUDGET_REFRESH_MS: positiveInt.default(15_000),
  JOB_QUEUE: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .default("gw-research"),
  TASKS_ACTIVE_PER_KEY: positiveInt.max(1000).default(3),
  TASK_TIMEOUT_MS: positiveInt.default(600_000),
  JOB_STALLED_MS: positiveInt.min(500).default(30_000),
  WORKER_DRAIN_MS: positiveInt.default(60_000),
  WORKER_THREADS: positiveInt.optional(),
  WORKER_QUEUE: positiveInt.default(64),
  WORKER_JOB_TIMEOUT_MS: positiveInt.default(30_000),
  WORKER_WAIT_MS: positiveInt.default(60_000),
  WORKER_MEMORY_MB: positiveInt.default(512),
  KEYLESS_RATE_PER_MINUTE: positiveInt.default(60),
  KEYLESS_CONCURRENCY: positiveInt.default(4),
  // The MCP SDK refuses batches over 100 messages itself.
  MCP_MAX_BATCH: positiveInt.max(100).default(20),
  // Parsed by secretBoxFromEnv below: its messages name the entry, never the key material.
  GATEWAY_SECRET_KEYS: z.string().optional(),
  // Checked by traceUrlTemplate below.
  TRACE_URL_TEMPLATE: z.string().optional(),
  GATEWAY_OWNER_KEYS: z
    .enum(OWNER_KEY_POLICIES, { message: `GATEWAY_OWNER_KEYS takes ${OWNER_KEY_POLICIES.join(", ")}` })
    .default("prefer"),
});

export type Config = {
  env: string;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  /** The response cache of model answers (LLM_CACHE_*): kept this long, entries up to a size, the in-process store's bound. */
  answerCache: {
    ttlMs: number;
    maxEntryBytes: number;
    maxBytes: number;
    /** Whether a hit is taken back out of the key's minute window (LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT). */
    hitsFreeOfMinuteLimit: boolean;
    /** The semantic cache's defaults (LLM_SEMANTIC_CACHE_*), for aliases that turn it on. */
    semantic: { embeddingModel: string; threshold: number; maxEntries: number };
  };
  /** OpenTelemetry traces (the standard OTEL_* variables); absent: tracing is off. */
  tracing?: TracingSettings;
  /** /metrics' series pushed over OTLP too (the standard OTEL_* variables); absent: not exported. */
  otlpMetrics?: OtlpMetricsSettings;
  /** A trace viewer's page with `{traceId}` (TRACE_URL_TEMPLATE): the request log links trace ids to it. */
  traceUrlTemplate?: string;
  upstash?: { url: string; token: string };
  maxBodyBytes: number;
  limits: { day: number; minute: number; concurrency: number };
  /** How long Redis has to answer a limit check before this instance counts the request itself. */
  limitTimeoutMs: number;
  meter: { flushMs: number; batch: number; maxBuffered: number; logPerKeySecond: number };
  /** How long a SIGTERM leaves in-flight requests and streams to finish before their connections close. */
  shutdownGraceMs: number;
  keyRefreshMs: number;
  /** Active client keys one user may hold (rotations in their grace period not counted). */
  maxKeysPerUser: number;
  /** Areas and default limits of the portal's console keys. */
  console: ConsolePolicy;
  /** KEY_APPROVAL (read by lib/portal/config.ts): besides key requests, who may use the model consoles before a key. */
  keyApproval: KeyApprovalPolicy;
  /** The operators' addresses, as the portal reads them (ADMIN_EMAILS, or the embedded default's local operator). */
  operators: ReadonlySet<string>;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  publicBaseUrl?: string;
  metricsToken?: string;
  /** Series labelled by key (budget remaining) in /metrics: off unless METRICS_PER_KEY=true, as keys are unbounded. */
  metricsPerKey: boolean;
  proxy: {
    maxBytes: number;
    timeoutMs: number;
    ratePerMinute: number;
    /** Upstream fetches /v1/proxy makes at once, across all clients; 503 past it. */
    maxConcurrent: number;
    /** Proxies whose X-Forwarded-For names the client (TRUST_PROXY); empty: the socket's peer is the client. */
    trustedProxies: TrustedProxies;
    allowPrivate: Set<string>;
    extraCa?: string;
  };
  /** chromiumPath: CHROMIUM_PATH; undefined: found at the first capture (lib/chromium-path.ts). */
  screenshot: { chromiumPath?: string; concurrency: number; queue: number; timeoutMs: number };
  /** The pool that runs sharp, pdf.js, pdfkit, espeak and keyword extraction off the event loop. */
  workers: { threads: number; queue: number; timeoutMs: number; waitMs: number; memoryMb: number };
  /** Per client address, for keyless requests to routes that do real work. */
  keyless: { minute: number; concurrency: number };
  /**
   * Deployments and the aliases callers name as models, from GATEWAY_CONFIG (or ./gateway.config.json,
   * .yaml, .yml), plus one implicit deployment per configured provider; a bad file stops start-up.
   */
  routing: Routing;
  /** The model router's breakers, where the operator changed them; absent fields keep breaker.ts's defaults. */
  breakers: { threshold?: number; cooldownMs?: number };
  /** Messages one POST /v1/mcp may batch (each may be a tool call); past it a JSON-RPC error. */
  mcpMaxBatch: number;
  /**
   * Seals the provider keys users store (GATEWAY_SECRET_KEYS); undefined when unset, and storing them is
   * then refused with 503 naming the variable (lib/llm/routing/owner-credentials.ts).
   */
  secretBox?: SecretBox;
  /** Whether model calls go out on their owner's stored provider key (GATEWAY_OWNER_KEYS; lib/llm/routing/owner-keys.ts). */
  ownerKeys: OwnerKeyPolicy;
  /** Whether keys may register local runners on private addresses (a LAN GPU box); off by default. */
  ollamaAllowPrivateHosts: boolean;
  /** Runner hosts one key (its rotation lineage) may register: each is probed whenever the key lists them. */
  ollamaHostsPerKey: number;
  /**
   * Provider features that cost beyond tokens which the compatible surfaces pass through (Anthropic's
   * server tools and betas, service tiers); any other is refused with 400. Their use is metered.
   */
  passthroughFeatures: ReadonlySet<string>;
  /** Days a stored Responses API answer stays readable (GET, previous_response_id) before it is deleted. */
  responsesRetentionDays: number;
  /** Days a keyed request's row (usage_events, the portal's request log) is kept; the daily rollups stay. */
  requestLogRetentionDays: number;
  /**
   * Model calls' request and answer bodies kept in the request log, each cut at `maxBytes`
   * (REQUEST_LOG_BODIES, off by default: they hold what callers and models wrote); undefined when off.
   */
  requestLogBodies: { maxBytes: number } | undefined;
  /** Monthly budgets: the most an owner may set per metric, and how often every instance re-reads them. */
  budgets: { ceilings: BudgetCeilings; refreshMs: number };
  /** Background jobs: how many run at once, how many one key may have waiting, batch items per key per UTC day. */
  jobs: {
    concurrency: number;
    queuedPerKey: number;
    /** Jobs one key (its rotation lineage) may have running at once, so it cannot take every slot. */
    runningPerKey: number;
    batchItemsPerDay: number;
    /** With Redis: whether web processes also work the research queue ("inline") or leave it to `npm run worker`. */
    workers: "inline" | "separate";
    /** The BullMQ queue (and cancel channel) name: deployments sharing one Redis need their own. */
    queue: string;
    /** Research tasks one key may have pending or running at once, across instances. */
    activePerKey: number;
    taskTimeoutMs: number;
    /** BullMQ lock duration and stalled-check interval. */
    stalledMs: number;
    /** `npm run worker` on SIGTERM: how long the tasks in hand may take to finish. */
    drainMs: number;
  };
};

/** Reads the operator's configuration from the environment; an invalid value stops start-up with its name. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    tracing: tracingSettings(env),
    otlpMetrics: otlpMetricsSettings(env),
    traceUrlTemplate: traceUrl(e.TRACE_URL_TEMPLATE),
    upstash:
      e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN
        ? { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN }
        : undefined,
    maxBodyBytes: e.MAX_BODY_BYTES,
    limits: { day: e.LIMIT_DAY, minute: e.LIMIT_MINUTE, concurrency: e.LIMIT_CONCURRENCY },
    limitTimeoutMs: e.LIMIT_REDIS_TIMEOUT_MS,
    meter: {
      flushMs: e.METER_FLUSH_MS,
      batch: e.METER_BATCH,
      maxBuffered: e.METER_MAX_BUFFERED,
      logPerKeySecond: e.REQUEST_LOG_ROWS_PER_KEY_SECOND,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    keyRefreshMs: e.KEY_REFRESH_MS,
    maxKeysPerUser: e.MAX_KEYS_PER_USER,
    console: {
      scopes: e.CONSOLE_KEY_SCOPES,
      limits: { day: e.CONSOLE_LIMIT_DAY, minute: e.CONSOLE_LIMIT_MINUTE, concurrency: e.CONSOLE_LIMIT_CONCURRENCY },
    },
    keyApproval: loadKeyApproval(env),
    operators: loadOperatorEmails(env),
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: e.PUBLIC_BASE_URL,
    metricsToken: e.METRICS_TOKEN,
    metricsPerKey: e.METRICS_PER_KEY === "true",
    proxy: {
      maxBytes: e.PROXY_MAX_BYTES,
      timeoutMs: e.PROXY_TIMEOUT_MS,
      ratePerMinute: e.PROXY_RATE_PER_MINUTE,
      maxConcurrent: e.PROXY_MAX_CONCURRENT,
      trustedProxies: trustedProxies(e.TRUST_PROXY),
      allowPrivate: allowPrivateOrigins(e.PROXY_ALLOW_PRIVATE_FOR_TESTS, e.NODE_ENV),
      extraCa: e.UPSTREAM_CA_FILE ? fs.readFileSync(e.UPSTREAM_CA_FILE, "utf8") : undefined,
    },
    ollamaAllowPrivateHosts: e.OLLAMA_ALLOW_PRIVATE_HOSTS === "true",
    ollamaHostsPerKey: e.OLLAMA_HOSTS_PER_KEY,
    passthroughFeatures: new Set(e.LLM_PASSTHROUGH_FEATURES),
    answerCache: {
      ttlMs: e.LLM_CACHE_TTL_SECONDS * 1000,
      maxEntryBytes: e.LLM_CACHE_MAX_ENTRY_BYTES,
      maxBytes: e.LLM_CACHE_MAX_BYTES,
      hitsFreeOfMinuteLimit: e.LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT === "true",
      semantic: {
        embeddingModel: e.LLM_SEMANTIC_CACHE_EMBEDDING_MODEL,
        threshold: e.LLM_SEMANTIC_CACHE_THRESHOLD,
        maxEntries: e.LLM_SEMANTIC_CACHE_MAX_ENTRIES,
      },
    },
    responsesRetentionDays: e.RESPONSES_RETENTION_DAYS,
    requestLogRetentionDays: e.REQUEST_LOG_RETENTION_DAYS,
    requestLogBodies: e.REQUEST_LOG_BODIES === "true" ? { maxBytes: e.REQUEST_LOG_BODY_BYTES } : undefined,
    budgets: {
      ceilings: {
        requests: e.BUDGET_MAX_REQUESTS ?? e.LIMIT_DAY * 31,
        tokens: e.BUDGET_MAX_TOKENS,
        cost: e.BUDGET_MAX_COST_USD,
      },
      refreshMs: e.BUDGET_REFRESH_MS,
    },
    jobs: {
      concurrency: e.JOBS_CONCURRENCY,
      queuedPerKey: e.JOBS_QUEUED_PER_KEY,
      runningPerKey: e.JOBS_RUNNING_PER_KEY,
      batchItemsPerDay: e.BATCH_ITEMS_PER_DAY,
      workers: e.JOB_WORKERS,
      queue: e.JOB_QUEUE,
      activePerKey: e.TASKS_ACTIVE_PER_KEY,
      taskTimeoutMs: e.TASK_TIMEOUT_MS,
      stalledMs: e.JOB_STALLED_MS,
      drainMs: e.WORKER_DRAIN_MS,
    },
    screenshot: {
      chromiumPath: e.CHROMIUM_PATH,
      concurrency: e.SCREENSHOT_CONCURRENCY,
      queue: e.SCREENSHOT_QUEUE,
      timeoutMs: e.SCREENSHOT_TIMEOUT_MS,
    },
    workers: {
      threads: e.WORKER_THREADS ?? os.availableParallelism(),
      queue: e.WORKER_QUEUE,
      timeoutMs: e.WORKER_JOB_TIMEOUT_MS,
      waitMs: e.WORKER_WAIT_MS,
      memoryMb: e.WORKER_MEMORY_MB,
    },
    keyless: { minute: e.KEYLESS_RATE_PER_MINUTE, concurrency: e.KEYLESS_CONCURRENCY },
    mcpMaxBatch: e.MCP_MAX_BATCH,
    routing: routing(env),
    breakers: {
      ...(e.GATEWAY_BREAKER_THRESHOLD !== undefined && { threshold: e.GATEWAY_BREAKER_THRESHOLD }),
      ...(e.GATEWAY_BREAKER_COOLDOWN_MS !== undefined && { cooldownMs: e.GATEWAY_BREAKER_COOLDOWN_MS }),
    },
    secretBox: secretBox(e.GATEWAY_SECRET_KEYS),
    ownerKeys: e.GATEWAY_OWNER_KEYS,
  };
}

function traceUrl(value: string | undefined): string | undefined {
  try {
    return traceUrlTemplate(value);
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`);
  }
}

function trustedProxies(value: string | undefined): TrustedProxies {
  try {
    return parseTrustedProxies(value);
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`);
  }
}

function routing(env: Record<string, string | undefined>): Routing {
  try {
    return loadRouting(env, process.cwd());
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`, { cause: err });
  }
}

function secretBox(value: string | undefined): SecretBox | undefined {
  try {
    return secretBoxFromEnv(value);
  } catch (err) {
    throw new Error(`invalid configuration: ${(err as Error).message}`);
  }
}

/** The test-only exemption from the private-address rule: a list of host:port, never in production. */
function allowPrivateOrigins(value: string | undefined, nodeEnv: string): Set<string> {
  if (!value) return new Set();
  if (nodeEnv === "production") {
    throw new Error("invalid configuration: PROXY_ALLOW_PRIVATE_FOR_TESTS is refused when NODE_ENV=production");
  }
  return new Set(
    value
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

// An exported-but-empty variable (FOO=) means "unset" to operators, not "invalid".
function withoutEmptyValues(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined && kv[1] !== ""),
  );
}
