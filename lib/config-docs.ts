/**
 * Every variable docs/configuration.md documents, by topic: the one source of its tables, which
 * `npm run config:doc` (scripts/config-doc.ts) writes between the guide's generated markers. A row's
 * default is left out where envSchema (lib/config.ts) has one: it is then written from the schema, so
 * a changed default changes the guide. test/config-doc.test.ts fails when the guide differs from what
 * the script would write, when a variable read by the code is missing here, or when one here is read nowhere.
 */

export type ConfigVariable = {
  /** The variables of the row; `<NAME>` in a name stands for a family (`UPSTREAM_<NAME>_URL`). */
  names: readonly string[];
  /** The first column, when it says more than the names in backticks (SMTP_PORT's own default). */
  label?: string;
  /** The default column (Markdown). Omitted: each name's envSchema default in backticks, joined by ", ". */
  default?: string;
  /**
   * Defaults envSchema has that the default column, written for the operator, does not show as such
   * (NODE_ENV: the start scripts set `production`); checked against the schema by the test all the same.
   */
  schemaDefaults?: Readonly<Record<string, string>>;
  meaning: string;
};

/** One table of the guide: its marker is `<!-- generated:config:<id> -->` under the heading. */
export type ConfigTopic = { id: string; heading: string; variables: readonly ConfigVariable[] };

export const CONFIG_TOPICS: readonly ConfigTopic[] = [
  {
    id: "server",
    heading: "Server, storage and processes",
    variables: [
      { names: ["PORT"], meaning: "listening port (`0` picks a free one; the log line says which)" },
      { names: ["HOST"], meaning: "listening address" },
      {
        names: ["DATA_DIR"],
        meaning:
          "embedded database (`DATA_DIR/pglite`, held by one process: `DATA_DIR/pglite.lock`) and the operator endpoint file; created mode 0700",
      },
      {
        names: ["DATABASE_URL"],
        default: "unset",
        meaning: "PostgreSQL connection string; unset = PGlite in `DATA_DIR`",
      },
      {
        names: ["REDIS_URL"],
        default: "unset",
        meaning:
          "Redis for shared limits, instant revocation and the research task queue across instances; unset = in-process",
      },
      {
        names: ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
        default: "unset",
        meaning: "Upstash REST instead of `REDIS_URL` for limits",
      },
      {
        names: ["NODE_ENV"],
        schemaDefaults: { NODE_ENV: "development" },
        default:
          "`production` under `npm start`, `npm run worker` and `npm run cluster` (set it yourself when running `node dist/server.mjs`)",
        meaning:
          "`production`: operators' sign-in links stay out of the log and test-only settings are refused; `development` runs the portal as `next dev`",
      },
      {
        names: ["SERVE_PORTAL"],
        default: "`true`",
        meaning: "`false` runs an API-only instance (no Next, no portal build needed)",
      },
      {
        names: ["PUBLIC_BASE_URL"],
        default: "request origin",
        meaning: "base URL used in links (`documentation`, OpenAPI `servers`) and in the portal home's sample call",
      },
      { names: ["LOG_LEVEL"], meaning: "pino level (`debug` logs every request; keys are never logged)" },
      { names: ["MAX_BODY_BYTES"], meaning: "request body cap (413 past it)" },
      {
        names: ["SHUTDOWN_GRACE_MS"],
        meaning:
          "on SIGTERM/SIGINT, how long in-flight requests and streams have to finish; then their connections are closed (a stream is metered as far as it went) and buffered usage is written",
      },
      {
        names: ["TRUST_PROXY"],
        default: "unset (trust nobody: the socket's peer is the client)",
        meaning:
          "comma list of addresses or CIDR ranges of your reverse proxies; only from these is `X-Forwarded-For` believed (read from the right, skipping trusted hops)",
      },
      {
        names: ["NODE_OPTIONS"],
        default: "unset",
        meaning:
          "Node's own options; `--max-semi-space-size=32` trades memory for keyed-request throughput ([operations.md](operations.md#running-in-production))",
      },
      {
        names: ["NEXT_TELEMETRY_DISABLED"],
        default: "`1` under `npm start`, `npm run worker` and `npm run cluster`",
        meaning: "Next's anonymous telemetry; the start scripts turn it off unless it is set",
      },
    ],
  },
  {
    id: "keys",
    heading: "Keys and limits",
    variables: [
      { names: ["LIMIT_DAY"], meaning: "default requests per key per UTC day (per-key overrides via the CLI)" },
      { names: ["LIMIT_MINUTE"], meaning: "default requests per key per rolling minute" },
      { names: ["LIMIT_CONCURRENCY"], meaning: "default requests per key in flight at once" },
      {
        names: ["LIMIT_REDIS_TIMEOUT_MS"],
        meaning:
          "how long Redis (or Upstash) has to answer a limit check; past it, or on an error, the request is counted on this instance alone (see [When something fails](operations.md#when-something-fails))",
      },
      { names: ["KEY_REFRESH_MS"], meaning: "how often each instance reads keys changed elsewhere (revocations)" },
      {
        names: ["MAX_KEYS_PER_USER"],
        meaning:
          "working client keys one user may hold (operator, CLI or portal; console keys not counted). A key in its rotation grace period still works, so it counts: a rotation with a grace period needs room for one more key (at the cap, rotate with no grace period or revoke a key first)",
      },
      {
        names: ["CONSOLE_KEY_SCOPES"],
        meaning: "areas the portal consoles' session keys may call (`all` = every area)",
      },
      {
        names: ["CONSOLE_LIMIT_DAY"],
        meaning: "default requests per console key per UTC day (an operator's per-key limit wins)",
      },
      { names: ["CONSOLE_LIMIT_MINUTE"], meaning: "default requests per console key per rolling minute" },
      { names: ["CONSOLE_LIMIT_CONCURRENCY"], meaning: "default console requests in flight at once per user" },
      {
        names: ["KEYLESS_RATE_PER_MINUTE", "KEYLESS_CONCURRENCY"],
        meaning:
          "per client address, keyless requests to keywords, format conversion, citations and trove dataset pages (429 past it)",
      },
      {
        names: ["MCP_MAX_BATCH"],
        meaning:
          "messages one `POST /v1/mcp` may batch (at most 100); past it the whole batch is a JSON-RPC error (400). A batch's tool calls run 4 at a time, and each after the first counts as one more request of the key",
      },
    ],
  },
  {
    id: "usage",
    heading: "Usage, request log and budgets",
    variables: [
      { names: ["METER_FLUSH_MS"], meaning: "how often buffered usage events are written" },
      { names: ["METER_BATCH"], meaning: "events per write (also writes early when this many are waiting; max 5000)" },
      {
        names: ["REQUEST_LOG_ROWS_PER_KEY_SECOND"],
        meaning:
          "request-log rows (`usage_events`) one key may add a second on one instance, in bursts of ten seconds' worth; past it requests are still counted in every total (dashboards, `/v1/usage`, budgets) but get no row of their own, counted in `gateway_request_log_unlogged_total`. At the default limits no key reaches it; it keeps one key at thousands of requests a second from making the database the bottleneck. `0`: a row for every request",
      },
      {
        names: ["METER_MAX_BUFFERED"],
        meaning:
          'usage events held in memory while the database is unreachable; past it the oldest are dropped and counted in `gateway_usage_events_dropped_total{reason="buffer_full"}`',
      },
      {
        names: ["REQUEST_LOG_RETENTION_DAYS"],
        meaning:
          "days each keyed request's row (`usage_events`, the portal's request log) is kept; every instance deletes older rows an hour apart (the first a minute after start), 1,000 at a time. The daily totals (dashboards, `/v1/usage`) are kept",
      },
      {
        names: ["REQUEST_LOG_BODIES"],
        meaning:
          "`true` keeps each keyed model call's request (as validated) and answer (its JSON, or a stream's events as sent) beside its request-log row, in `request_bodies`, shown on the request's page as a conversation to the key's owner and operators; deleted with the row (`REQUEST_LOG_RETENTION_DAYS`). Each kept body is redacted by the guardrails' personal-data check as the meter writes it (placeholders such as `[EMAIL_1]`, whatever the key's policy; [guardrails.md](guardrails.md)). Off by default: bodies hold what callers and models wrote, and the check finds the kinds it knows, not names or addresses",
      },
      {
        names: ["REQUEST_LOG_BODY_BYTES"],
        meaning: "the most bytes kept of each body (at most 1 MiB); a longer one is cut there and says how long it was",
      },
      {
        names: ["BUDGET_MAX_REQUESTS"],
        default: "`LIMIT_DAY` × 31",
        meaning: "the largest monthly budget in requests a key's owner may set",
      },
      { names: ["BUDGET_MAX_TOKENS"], meaning: "the largest monthly budget in tokens" },
      { names: ["BUDGET_MAX_COST_USD"], meaning: "the largest monthly budget in estimated cost (USD)" },
      {
        names: ["BUDGET_REFRESH_MS"],
        meaning:
          "how often each instance re-reads budgets, this month's usage and the operator's prices from the database (alerts other instances' traffic caused are sent then too)",
      },
    ],
  },
  {
    id: "portal",
    heading: "Portal and sign-in",
    variables: [
      {
        names: ["ADMIN_EMAILS"],
        default: "unset",
        meaning:
          "comma list of operator emails (the portal's `/admin`); matched only by email-link sign-ins and GitHub addresses GitHub reports verified. Unset with no SMTP either: the operator is `operator@localhost`, signed in by the first-run link (see [Getting started](getting-started.md#operator-sign-in))",
      },
      {
        names: ["KEY_APPROVAL"],
        default: "`manual`",
        meaning:
          "who approves key requests: `manual` (an operator), `auto` (nobody: keys are issued at once, for self-hosters), `domains` (nobody for addresses at `KEY_APPROVAL_DOMAINS`, an operator for the rest); the same decides when a console may call the model areas; see [key approval](portal.md#key-approval)",
      },
      {
        names: ["KEY_APPROVAL_DOMAINS"],
        default: "unset",
        meaning:
          "comma list of domains for `KEY_APPROVAL=domains` (`example.com,example.org`); matched exactly, so list subdomains too; required by `domains`, refused with any other mode",
      },
      {
        names: ["AUTO_APPROVE_KEYS"],
        default: "unset",
        meaning:
          "deprecated alias: `true` is `KEY_APPROVAL=auto`, `false` is `manual`; a start with it set logs a notice, and one that contradicts `KEY_APPROVAL` is refused",
      },
      {
        names: ["NEXTAUTH_URL"],
        default: "`PUBLIC_BASE_URL`, else the address `server.ts` listens on",
        meaning: "public address used in sign-in links; never taken from the request's Host header",
      },
      {
        names: ["NEXTAUTH_SECRET"],
        default: "generated once into `DATA_DIR/nextauth-secret` (mode 0600)",
        meaning: "signs sign-in tokens; set one shared value when running several instances",
      },
      {
        names: ["SMTP_URL", "SMTP_HOST", "SMTP_PORT", "SMTP_USER", "SMTP_PASSWORD"],
        label: "`SMTP_URL`, or `SMTP_HOST`, `SMTP_PORT` (587), `SMTP_USER`, `SMTP_PASSWORD`",
        default: "unset",
        meaning: "outgoing mail (sign-in links, key decisions); unset → sign-in links go to the server log",
      },
      { names: ["EMAIL_FROM"], default: "`API Gateway <no-reply@localhost>`", meaning: "sender of the portal's mail" },
      { names: ["GITHUB_ID", "GITHUB_SECRET"], default: "unset", meaning: "turn on GitHub sign-in" },
      {
        names: ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"],
        default: "unset",
        meaning:
          "turn on sign-in with a company's OpenID Connect provider (discovery at `<issuer>/.well-known/openid-configuration`; register `<portal>/api/auth/callback/oidc` as its redirect URI)",
      },
      {
        names: ["OIDC_NAME"],
        default: "`single sign-on`",
        meaning: 'the provider\'s name on the sign-in button ("Sign in with …")',
      },
      {
        names: ["UPSTREAM_GITHUB_OAUTH_URL"],
        default: "`https://github.com`",
        meaning:
          "origin of GitHub's OAuth endpoints for sign-in (its API, `/user` and `/user/emails`, follows `UPSTREAM_GITHUB_URL`)",
      },
    ],
  },
  {
    id: "llm",
    heading: "Language models",
    variables: [
      {
        names: [
          "XAI_API_KEY",
          "OPENAI_API_KEY",
          "ANTHROPIC_API_KEY",
          "GEMINI_API_KEY",
          "MISTRAL_API_KEY",
          "GROQ_API_KEY",
          "PERPLEXITY_API_KEY",
          "COHERE_API_KEY",
        ],
        default: "unset",
        meaning:
          "language-model credentials; a provider is usable, and listed in `/v1/capabilities`, once its key is set (unset → 503 naming the variable)",
      },
      {
        names: ["UPSTREAM_OLLAMA_URL"],
        default: "unset",
        meaning: "origin of a local Ollama; counts as configured once set",
      },
      {
        names: ["LLM_PASSTHROUGH_FEATURES"],
        default: "empty",
        schemaDefaults: { LLM_PASSTHROUGH_FEATURES: "" },
        meaning:
          "provider features billed beyond tokens that the compatible surfaces pass through, comma-separated: Anthropic server tools on `/v1/messages` by type without its date (`web_search`, `web_fetch`, `code_execution`), Anthropic betas that may switch on billed features (`anthropic-beta:code-execution`, `anthropic-beta:mcp-client`; betas billing only tokens, such as `interleaved-thinking`, always pass), service tiers other than `auto` and `default` on `/v1/chat/completions` and `/v1/responses` (`service_tier:priority`, `service_tier:flex`). Anything unlisted is refused with 400 naming it; a listed feature's use is metered",
      },
      {
        names: ["LLM_TIMEOUT_MS"],
        default: "`120000`",
        meaning:
          "a model call's time limit, its retries and fallbacks and a whole stream included, on `/v1/llm/chat`, `/v1/chat/completions`, `/v1/messages`, `/v1/responses` (504 before the first word; after it the stream ends with an error event)",
      },
      {
        names: ["RESPONSES_RETENTION_DAYS"],
        meaning:
          "days a stored Responses API answer stays readable (`GET`, `previous_response_id`, `item_reference`) before it is deleted",
      },
      {
        names: ["VIDEO_POLL_MS"],
        default: "`10000`",
        meaning: "how often a video job asks Gemini whether the video is ready",
      },
      { names: ["ELEVENLABS_API_KEY"], default: "unset", meaning: 'enables `provider: "elevenlabs"` speech' },
      {
        names: ["OLLAMA_ALLOW_PRIVATE_HOSTS"],
        meaning: "`true` lets keys register local runners on private addresses (a LAN GPU box)",
      },
      {
        names: ["OLLAMA_HOSTS_PER_KEY"],
        meaning:
          "runner hosts one key (with its rotations) may register with `POST /v1/llm/ollama/hosts`; one more is refused with 409; `DELETE /v1/llm/ollama/hosts?url=<host>` frees a place (204; 404 for a host this key did not register)",
      },
    ],
  },
  {
    id: "routing",
    heading: "Model routing",
    variables: [
      {
        names: ["GATEWAY_CONFIG"],
        default: "`./gateway.config.json` (then `.yaml`, `.yml`)",
        meaning:
          "the model routing file: deployments and aliases ([routing.md](routing.md)); a bad file stops the start naming its line",
      },
      {
        names: ["GATEWAY_BREAKER_THRESHOLD"],
        default: "`5`",
        meaning: "failures of one deployment in 30 s that open its circuit breaker",
      },
      {
        names: ["GATEWAY_BREAKER_COOLDOWN_MS"],
        default: "`15000`",
        meaning: "how long an open breaker waits before letting one probe through",
      },
      {
        names: ["GATEWAY_SECRET_KEYS"],
        default: "unset",
        meaning:
          "`id:base64key[,…]` (32-byte keys, the first seals): lets users store their own provider keys; unset, `/v1/provider-keys` answers 503",
      },
      {
        names: ["GATEWAY_OWNER_KEYS"],
        meaning:
          "how owners' stored provider keys are used: `prefer` (theirs first, then the operator's), `only`, `off`",
      },
    ],
  },
  {
    id: "cache",
    heading: "Response cache",
    variables: [
      {
        names: ["LLM_CACHE_TTL_SECONDS"],
        meaning: "how long the response cache keeps an answer ([cache.md](cache.md))",
      },
      {
        names: ["LLM_CACHE_MAX_ENTRY_BYTES"],
        meaning: "the largest answer the response cache keeps; a larger one is answered and not kept",
      },
      {
        names: ["LLM_CACHE_MAX_BYTES"],
        meaning:
          "what the in-process response cache holds in all, least recently used first out (with `REDIS_URL` the entries are on Redis, bounded by its own `maxmemory`)",
      },
      {
        names: ["LLM_CACHE_HITS_FREE_OF_MINUTE_LIMIT"],
        meaning:
          "`true`: a response-cache hit still counts against the key's day limit and request budget, but is taken back out of its minute window",
      },
      {
        names: ["LLM_SEMANTIC_CACHE_EMBEDDING_MODEL"],
        meaning:
          "what the semantic cache embeds prompts with (an alias or provider/model), for aliases whose cache policy turns it on ([cache.md](cache.md#matching-by-meaning))",
      },
      {
        names: ["LLM_SEMANTIC_CACHE_THRESHOLD"],
        meaning: "the cosine similarity a near question needs for its answer to be given",
      },
      {
        names: ["LLM_SEMANTIC_CACHE_MAX_ENTRIES"],
        meaning: "vectors the in-process index holds, oldest first out (memory: about 2 bytes per dimension each)",
      },
    ],
  },
  {
    id: "upstreams",
    heading: "Data sources and upstreams",
    variables: [
      { names: ["ALPHAVANTAGE_API_KEY"], default: "unset", meaning: "enables `/v1/data/finance/daily`" },
      { names: ["SERPER_API_KEY"], default: "unset", meaning: "enables `/v1/utils/search` (web search)" },
      {
        names: ["YOUTUBE_API_KEY", "WOLFRAM_APP_ID", "NEWS_API_KEY", "MAL_CLIENT_ID"],
        default: "unset",
        meaning: "credentials for those data sources (503 naming the variable until set)",
      },
      {
        names: [
          "NASA_API_KEY",
          "FEC_API_KEY",
          "GITHUB_TOKEN",
          "NCBI_API_KEY",
          "SEMANTIC_SCHOLAR_API_KEY",
          "CENSUS_API_KEY",
          "COURTLISTENER_TOKEN",
        ],
        default: "unset (NASA: `DEMO_KEY`)",
        meaning: "optional credentials that raise those sources' rate limits",
      },
      {
        names: ["MASTODON_ACCESS_TOKEN"],
        default: "unset",
        meaning:
          "a Mastodon user token: `/v1/social/search` then uses Mastodon's full-text search; unset → the public hashtag timelines of the query's tags (search gives anonymous callers no posts). `sources.mastodon.via` says which",
      },
      {
        names: ["WAQI_TOKEN"],
        default: "unset",
        meaning:
          "World Air Quality Index token for `/v1/datavis/proxy/airquality`; unset → the shipped snapshot, marked `stale: true`",
      },
      {
        names: ["ETYMOLOGY_DATA_PATH"],
        default: "`lib/api/etymology/data/etymology.json.gz`",
        meaning:
          "etymology data file to load instead of the shipped one (same record format); unloadable → `/v1/etymology/health` 502",
      },
      {
        names: ["UPSTREAM_<NAME>_URL"],
        default:
          "the service's real origin (e.g. `UPSTREAM_BLUESKY_URL`, `UPSTREAM_MASTODON_URL` for another Mastodon server, `UPSTREAM_REDDIT_URL`)",
        meaning:
          "replaces a third-party origin (scheme, host, port; paths stay the service's), e.g. `UPSTREAM_OPENAI_URL`, `UPSTREAM_ELEVENLABS_URL`: for mirrors, and for tests' fake servers",
      },
      {
        names: ["UPSTREAM_MAX_BYTES"],
        default: "`67108864`",
        meaning: "largest body read from any third-party API (data sources, LLMs, speech, social); 502 past it",
      },
      {
        names: ["UPSTREAM_CA_FILE"],
        default: "unset",
        meaning: "extra CA certificates (PEM) trusted for outbound HTTPS, e.g. a corporate proxy's",
      },
    ],
  },
  {
    id: "proxy",
    heading: "Fetch proxy and screenshots",
    variables: [
      { names: ["PROXY_MAX_BYTES"], meaning: "largest upstream body `/v1/proxy` returns (502 past it)" },
      { names: ["PROXY_TIMEOUT_MS"], meaning: "upstream time limit for `/v1/proxy` (504 past it)" },
      {
        names: ["PROXY_RATE_PER_MINUTE"],
        meaning:
          "`/v1/proxy` requests per client address per minute (it needs no key); IPv6 clients are counted per /64",
      },
      {
        names: ["PROXY_MAX_CONCURRENT"],
        meaning:
          "upstream fetches `/v1/proxy` makes at once per instance, across all clients; past it → 503 with `Retry-After: 1`",
      },
      {
        names: ["CHROMIUM_PATH"],
        default:
          "the first found of `chromium`, `chromium-browser`, `google-chrome` on `PATH`, the usual install places (`/usr/bin/chromium`, `/Applications/Google Chrome.app`, …) and Playwright's own download (`npx playwright install chromium`)",
        meaning:
          "Chromium for screenshots and the browser tests; none found: screenshots answer 503 saying what to install, and the browser tests stop at once",
      },
      { names: ["SCREENSHOT_CONCURRENCY"], meaning: "pages captured at once (one shared browser)" },
      { names: ["SCREENSHOT_QUEUE"], meaning: "captures allowed to wait for a slot; past it → 503" },
      { names: ["SCREENSHOT_TIMEOUT_MS"], meaning: "time limit per capture, plus `extraWaitMs` (504 past it)" },
    ],
  },
  {
    id: "jobs",
    heading: "Background jobs, research tasks and the worker pool",
    variables: [
      {
        names: ["JOBS_CONCURRENCY"],
        meaning:
          "background jobs (batches, videos, archive saves) running at once per instance; waiting jobs start round-robin across keys. A batch's or research task's status shows `queue_position` (1 = next) while it waits",
      },
      { names: ["JOBS_QUEUED_PER_KEY"], meaning: "jobs one key may have waiting to start; past it 429" },
      {
        names: ["JOBS_RUNNING_PER_KEY"],
        meaning:
          "jobs one key may have running at once (per instance; research tasks on BullMQ: across workers), so one key cannot hold every slot of `JOBS_CONCURRENCY`; its others wait, and other keys' jobs start before them",
      },
      {
        names: ["BATCH_ITEMS_PER_DAY"],
        meaning: "`/v1/llm/batch` items per key per UTC day (at most 1,000 per batch); past it 429",
      },
      {
        names: ["TASKS_ACTIVE_PER_KEY"],
        meaning:
          "research tasks (`/v1/orchestrate/*?async=true`) one key may have pending or running at once, across instances; past it 429",
      },
      {
        names: ["TASK_TIMEOUT_MS"],
        meaning:
          'a research run still going after this long fails ("timed out") and its calls are aborted; a synchronous run answers 504',
      },
      {
        names: ["JOB_WORKERS"],
        meaning:
          "with `REDIS_URL`: `inline` — web processes also work the research queue; `separate` — they only enqueue, and `npm run worker` processes run the tasks",
      },
      {
        names: ["JOB_QUEUE"],
        meaning: "BullMQ queue name (and `<name>:cancel` channel); deployments sharing one Redis need different names",
      },
      {
        names: ["JOB_STALLED_MS"],
        meaning: "BullMQ lock duration and stalled-check interval: how soon a killed worker's task is taken up again",
      },
      {
        names: ["WORKER_DRAIN_MS"],
        meaning:
          "`npm run worker`: how long SIGTERM waits for the tasks in hand before exiting (they are then found stalled and retried)",
      },
      {
        names: ["CLUSTER_WEB_INSTANCES"],
        default: "`2`",
        meaning: "`npm run cluster`: web processes sharing the port (1–64)",
      },
      {
        names: ["WORKER_THREADS"],
        default: "number of cores",
        meaning:
          "threads of the pool that runs sharp, pdf.js, PDF and DOCX documents, espeak, keywords, text and data conversion, and the guardrail checks of prompts over 32,768 characters",
      },
      { names: ["WORKER_QUEUE"], meaning: "jobs waiting for a pool thread before 503" },
      {
        names: ["WORKER_JOB_TIMEOUT_MS"],
        meaning: "a pool job's time limit, from when a thread begins its work (422 past it)",
      },
      {
        names: ["WORKER_WAIT_MS"],
        meaning:
          "how long a job may wait before its work begins: the queue, a thread's start and the first import of what the job needs (503 past it)",
      },
      { names: ["WORKER_MEMORY_MB"], meaning: "a pool job's JavaScript heap limit (413 past it)" },
    ],
  },
  {
    id: "observability",
    heading: "Metrics and tracing",
    variables: [
      {
        names: ["METRICS_TOKEN"],
        default: "unset",
        meaning: "when set, `/metrics` needs `Authorization: Bearer <token>`",
      },
      {
        names: ["METRICS_PER_KEY"],
        meaning: "`true` adds per-key series (`gateway_budget_remaining{key}`); off, no series carries a key",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_ENDPOINT"],
        default: "unset (tracing off)",
        meaning:
          "OpenTelemetry collector's base URL: traces go to `<url>/v1/traces` over OTLP/HTTP ([tracing.md](tracing.md)), metrics to `<url>/v1/metrics` ([operations.md](operations.md))",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"],
        default: "unset",
        meaning: "full traces URL, used as given instead of the base's",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_PROTOCOL"],
        default: "`http/protobuf`",
        meaning: "or `http/json` (`grpc` is refused)",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_HEADERS"],
        default: "unset",
        meaning: "`name=value,…` headers on each export (a vendor's API key)",
      },
      { names: ["OTEL_SERVICE_NAME"], default: "`unified-api-gateway`", meaning: "the traces' `service.name`" },
      { names: ["OTEL_RESOURCE_ATTRIBUTES"], default: "unset", meaning: "`key=value,…` added to the traces' resource" },
      {
        names: ["OTEL_TRACES_SAMPLER"],
        default: "`parentbased_traceidratio`",
        meaning: "also `always_on`, `always_off`; a caller's sampled `traceparent` is always followed",
      },
      {
        names: ["OTEL_TRACES_SAMPLER_ARG"],
        default: "`1`",
        meaning: "share of new traces exported (0–1); failed and slow ones are exported regardless",
      },
      {
        names: ["OTEL_TRACES_KEEP_SLOW_MS"],
        default: "`2000`",
        meaning: "a trace left out by the ratio is still exported when its request took this long",
      },
      { names: ["OTEL_BSP_SCHEDULE_DELAY"], default: "`5000`", meaning: "ms between span exports" },
      {
        names: ["OTEL_BSP_MAX_QUEUE_SIZE"],
        default: "`2048`",
        meaning: "spans waiting for export; past it new ones are dropped",
      },
      { names: ["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"], default: "`512`", meaning: "spans per export request" },
      { names: ["OTEL_BSP_EXPORT_TIMEOUT"], default: "`30000`", meaning: "ms one export may take" },
      {
        names: ["OTEL_GENAI_CAPTURE_CONTENT"],
        default: "`false`",
        meaning: "`true` puts the messages sent and the answer on the span of the model-call attempt that answered",
      },
      {
        names: ["OTEL_SDK_DISABLED"],
        default: "`false`",
        meaning: "`true` turns tracing and the OTLP metrics push off",
      },
      {
        names: ["OTEL_METRICS_EXPORTER"],
        default: "`otlp`",
        meaning: "`none` pushes traces only, leaving `/metrics` to be scraped",
      },
      { names: ["OTEL_METRIC_EXPORT_INTERVAL"], default: "`60000`", meaning: "ms between OTLP metric pushes" },
      { names: ["OTEL_TRACES_EXPORTER"], default: "`otlp`", meaning: "`none` turns tracing off" },
      {
        names: ["TRACE_URL_TEMPLATE"],
        default: "unset",
        meaning:
          "a trace viewer's page with `{traceId}` (`http://localhost:16686/trace/{traceId}`): the request log's trace ids link to it",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"],
        default: "unset",
        meaning:
          "full metrics URL, used as given instead of the base's `<url>/v1/metrics`; either one turns the metrics push on",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL"],
        default: "`OTEL_EXPORTER_OTLP_PROTOCOL`",
        meaning: "the protocol of the trace export alone or of the metrics push alone (`http/protobuf` or `http/json`)",
      },
      {
        names: ["OTEL_EXPORTER_OTLP_TRACES_HEADERS"],
        default: "unset",
        meaning: "headers added to `OTEL_EXPORTER_OTLP_HEADERS` on trace exports, winning per header",
      },
      {
        names: ["OTEL_METRIC_EXPORT_TIMEOUT"],
        default: "`30000`",
        meaning: "ms one OTLP metrics push may take (at most `OTEL_METRIC_EXPORT_INTERVAL`)",
      },
      {
        names: [
          "OTEL_EXPORTER_OTLP_TIMEOUT",
          "OTEL_EXPORTER_OTLP_COMPRESSION",
          "OTEL_EXPORTER_OTLP_CERTIFICATE",
          "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE",
          "OTEL_EXPORTER_OTLP_CLIENT_KEY",
        ],
        default: "the OpenTelemetry defaults",
        meaning:
          "read by the OTLP trace exporter itself, as are their forms with `TRACES_` after `OTLP_` ([tracing.md](tracing.md#variables))",
      },
    ],
  },
  {
    id: "tests",
    heading: "Tests and benchmarks",
    variables: [
      {
        names: ["PROXY_ALLOW_PRIVATE_FOR_TESTS"],
        default: "unset",
        meaning:
          "tests only: `host:port` list exempt from the private-address rule; refused with `NODE_ENV=production`",
      },
      {
        names: ["BENCH_CONNECTIONS", "BENCH_SECONDS", "BENCH_ROUNDS"],
        default: "`50`, `10`, `40`",
        meaning: "benchmark load",
      },
      {
        names: ["LOAD_SECONDS", "LOAD_KEYS", "LOAD_CONNECTIONS"],
        default: "`30`, `200`, `48` (`npm test`: `5`, `20`, `48`)",
        meaning: "`npm run test:load`: how long, how many keys, how many callers on the fast keys",
      },
      {
        names: ["FAULTS_LOAD_MS"],
        default: "`2000` (`npm run test:faults`: `8000`)",
        meaning: "tests only: length of each load phase in the fault scenarios",
      },
      {
        names: ["CI"],
        default: "unset",
        meaning:
          "set (as CI does): Vitest also writes its JSON report `.vitest-results.json`, a browser test left as `test.only` fails the run, and the screenshot tests run, rather than being skipped, where Chromium is missing",
      },
      {
        names: ["FUZZ_CASES"],
        default: "`3` (`npm run test:fuzz`: `40`)",
        meaning: "hostile cases per operation in the fuzz test (`test/fuzz/`)",
      },
      { names: ["FUZZ_SEED"], default: "`17`", meaning: "the fuzz test's seed: the same seed replays a run" },
      {
        names: ["FUZZ_ONLY"],
        default: "unset",
        meaning:
          "a regular expression on `METHOD /path` (`^POST /v1/documents/generate$`) limiting the fuzz test to some operations",
      },
      {
        names: ["FUZZ_TIMEOUT_MS"],
        default: "`5000`",
        meaning: "how long one fuzz request may take (a late one is asked once more)",
      },
      {
        names: ["LOAD_ROUTING_CLIENTS"],
        default: "`16`",
        meaning:
          "callers of the model router's load test (`test/load/routing-fallback-load.test.ts`), which runs for `LOAD_SECONDS`",
      },
      {
        names: ["BENCH_REPEAT"],
        default: "`3` (`bench/llm-completion.ts`: `2`)",
        meaning:
          "rounds of `bench/gateway.ts`, `bench/instances.ts`, `bench/data-cache.ts`, `bench/tracing-spans.ts` and `bench/llm-completion.ts`",
      },
      { names: ["BENCH_LLM_CONNECTIONS"], default: "`20`", meaning: "connections of the non-streamed completion load" },
      {
        names: ["BENCH_IDLE_SECONDS"],
        default: "`30`",
        meaning: "`bench/memory.ts`: how long the gateway sits idle before its idle memory is read",
      },
      { names: ["BENCH_OPEN_STREAMS"], default: "`1000`", meaning: "`bench/llm-stream.ts`: streams held open at once" },
      {
        names: [
          "BENCH_CACHE_ROUNDS",
          "BENCH_TOKEN_ROUNDS",
          "BENCH_LEVEL_ROUNDS",
          "BENCH_BUDGET_ROUNDS",
          "BENCH_BODY_ROUNDS",
          "BENCH_TRACING_ROUNDS",
        ],
        default: "`6`, `6`, `12`, `12`, `12`, `8`",
        meaning:
          "alternating rounds of `bench/response-cache.ts`, `bench/token-limits.ts`, `bench/limit-levels.ts`, `bench/level-budgets.ts`, `bench/body-capture.ts` and `bench/tracing.ts`",
      },
      {
        names: ["BENCH_PII_ROUNDS"],
        default: "`2000`",
        meaning:
          "`bench/guardrails-pii.ts`: timed runs of the personal-data check on a 4 kB prompt (fewer on the 40 and 400 kB ones)",
      },
      {
        names: ["BENCH_LEVEL_REDIS_CALLS"],
        default: "`20000`",
        meaning: "`bench/limit-levels.ts`: calls timed on Redis in each round",
      },
      {
        names: ["BENCH_SEMANTIC_ENTRIES", "BENCH_SEMANTIC_DIMS", "BENCH_SEMANTIC_QUERIES"],
        default: "`100000`, `1536`, `2000`",
        meaning: "`bench/semantic-cache.ts`: vectors stored, their dimensions, questions asked",
      },
      {
        names: ["BENCH_OTEL_BATCH"],
        default: "unset",
        meaning: "`bench/tracing.ts`: `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` of the traced server",
      },
      {
        names: ["BENCH_ENV"],
        default: "`{}`",
        meaning:
          '`bench/keyless-stall.ts`: a JSON object of extra server settings (`{"KEYLESS_RATE_PER_MINUTE":"1000000"}`)',
      },
      {
        names: ["PEERS_BACKEND"],
        default: "`pglite`",
        meaning: "`bench/peers.ts`: `postgres` runs our gateway on `DATABASE_URL`'s PostgreSQL, as production does",
      },
      {
        names: ["PROFILE_PATH", "PROFILE_KEYED", "PROFILE_ENV", "PROFILE_KEEP"],
        default: "`/v1/llm/chat`, keyed, unset, unset",
        meaning:
          "`bench/profile.ts` (a CPU profile of one kind of request, not part of `npm run bench`): the streamed surface to profile, `0` for no key, a JSON object added to the server's environment, and `1` to keep the `.cpuprofile`",
      },
      {
        names: [
          "TEST_PGLITE_TEMPLATE",
          "BENCH_RESULTS_LOG",
          "PROXY_UPSTREAM",
          "INSTANCES",
          "HEAP_OUT",
          "PROFILE_OUT",
          "PROFILE_MS",
          "PRISMA_SCHEMA_ENGINE_BINARY",
          "PRISMA_HIDE_UPDATE_MESSAGE",
          "CHECKPOINT_DISABLE",
        ],
        default: "set by the scripts",
        meaning:
          "set by the test setups, `bench/` and `npm install`'s Prisma generation for the processes they start; not for setting by hand",
      },
    ],
  },
];

/**
 * Documented variables no code of ours reads: Node.js and the OpenTelemetry packages read them themselves.
 * The test accepts them without a read in the source; each says who reads it.
 */
export const READ_BY_OTHERS: Readonly<Record<string, string>> = {
  NODE_OPTIONS: "Node.js itself",
  OTEL_EXPORTER_OTLP_HEADERS: "the OTLP exporters (@opentelemetry/exporter-*-otlp-*)",
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: "the OTLP trace exporter",
  OTEL_EXPORTER_OTLP_TIMEOUT: "the OTLP exporters",
  OTEL_EXPORTER_OTLP_COMPRESSION: "the OTLP exporters",
  OTEL_EXPORTER_OTLP_CERTIFICATE: "the OTLP exporters",
  OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE: "the OTLP exporters",
  OTEL_EXPORTER_OTLP_CLIENT_KEY: "the OTLP exporters",
  OTEL_RESOURCE_ATTRIBUTES: "@opentelemetry/resources' envDetector",
};

/** Names that look like reads in the source but are no setting of the gateway's; each says why. */
export const NOT_SETTINGS: Readonly<Record<string, string>> = {
  API_KEY: "the caller's variable in the sample code the portal shows (`process.env.API_KEY` in a string)",
  PATH: "the system's command search path, where lib/chromium-path.ts looks for a browser (see CHROMIUM_PATH)",
};
