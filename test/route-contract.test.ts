import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { concurrencyLimit } from "../lib/concurrency-limit.ts";
import { gatewayErrorMessage, type ErrorBody } from "../lib/gateway/pipeline/error-shape.ts";
import type { TableEntry } from "../lib/gateway/pipeline/route-table.ts";
import { toAnthropicError } from "../lib/llm/wire/anthropic/errors.ts";
import { toOpenAIError } from "../lib/llm/wire/openai-chat.ts";
import { PROVIDERS } from "../lib/upstream/llm-catalogue.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { listen } from "./support/listen.ts";
import { validRouteInput } from "./support/route-input.ts";

type Answer = { status: number; headers: Record<string, string | null>; body: unknown };
// Remaining counts are left out: each adapter's request uses one of the key's.
const SHOWN = ["x-request-id", "allow", "www-authenticate", "x-ratelimit-limit", "retry-after"];

async function read(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: res.status, headers: Object.fromEntries(SHOWN.map((h) => [h, res.headers.get(h)])), body };
}

/**
 * One contract for every route in the table, generated from it, through both adapters: the Node one
 * (over a socket, as `npm start` serves) and the Fetch one (in-process, as `next dev` and serverless
 * hosts serve). For each route: no key, a bad key, a key without the route's scope, a key over its
 * limit, input its contract refuses, and a method the path is not served with — the same status,
 * headers (request id, rate limit, Allow) and body from both, and the status the spec gives.
 */
describe("every route answers the pipeline's refusals the same through both adapters", () => {
  let gw: TestGateway;
  let key: string;
  let outOfScope: string;
  let spent: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.key({ minute: 1_000_000, day: 1_000_000, concurrency: 1000 }));
    ({ key: outOfScope } = await gw.key({ scopes: ["social"], minute: 1_000_000, day: 1_000_000 }));
    // Its day is used up by one request: a minute window would weigh in the previous minute's count.
    ({ key: spent } = await gw.key({ minute: 1_000_000, day: 1 }));
    expect((await gw.request("/v1/key", { headers: { "X-API-Key": spent } })).status).toBe(200);
  });
  afterAll(async () => {
    await gw?.close();
  });

  /** The same request through the Node adapter (socket) and the Fetch adapter (in-process). */
  async function both(path: string, init: RequestInit): Promise<[Answer, Answer]> {
    const node = await read(await gw.request(path, init));
    const fetched = await read(await gw.app.fetch(new Request(gw.url + path, init)));
    return [node, fetched];
  }

  const concretePath = (entry: TableEntry) => entry.template.replace(/\{(\w+)\}/g, "x");

  function requestFor(entry: TableEntry, headers: Record<string, string>, body?: string): RequestInit {
    const json = entry.def.contract.request?.body !== undefined;
    return {
      method: entry.method,
      headers: {
        "X-Request-Id": "contract-check",
        ...(json ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      ...(entry.method === "GET" || entry.method === "HEAD" ? {} : { body: body ?? (json ? "{}" : undefined) }),
    };
  }

  const entries = () => gw.app.table.entries;

  it("has every area's routes in its table", () => {
    expect(entries().length).toBeGreaterThan(100);
  });

  it("refuses a missing key (401) and a bad key (401) on every keyed route, identically", async () => {
    for (const entry of entries().filter((e) => e.def.access.auth === "key")) {
      const label = `${entry.method} ${entry.template}`;
      const [missingNode, missingFetch] = await both(concretePath(entry), requestFor(entry, {}));
      expect(missingNode.status, label).toBe(401);
      expect(missingNode.headers["www-authenticate"], label).toMatch(/^Bearer/);
      expect(missingNode.headers["x-request-id"], label).toBe("contract-check");
      expect(missingFetch, label).toEqual(missingNode);
      const [badNode, badFetch] = await both(concretePath(entry), requestFor(entry, { "X-API-Key": "sk-nope" }));
      expect(badNode.status, label).toBe(401);
      expect(badFetch, label).toEqual(badNode);
    }
  });

  it("refuses a key whose scopes leave the route's area out (403), identically", async () => {
    for (const entry of entries().filter(
      (e) => e.def.access.auth !== "none" && !["account", "social"].includes(e.area.scope),
    )) {
      const label = `${entry.method} ${entry.template}`;
      const [node, fetched] = await both(concretePath(entry), requestFor(entry, { "X-API-Key": outOfScope }));
      expect(node.status, label).toBe(403);
      expect(node.headers["x-ratelimit-limit"], label).toBeNull();
      expect(fetched, label).toEqual(node);
    }
  });

  it("refuses a key over its day limit (429 in Form B with its limit headers), identically", async () => {
    for (const entry of entries().filter((e) => e.def.access.auth !== "none")) {
      const label = `${entry.method} ${entry.template}`;
      const [node, fetched] = await both(concretePath(entry), requestFor(entry, { "X-API-Key": spent }));
      expect(node.status, label).toBe(429);
      expect(node.headers["x-ratelimit-limit"], label).toBe("1");
      expect(node.headers["retry-after"], label).toMatch(/^\d+$/);
      const error = (node.body as { error: { code?: string; type?: string } }).error;
      expect(error.code ?? error.type, label).toMatch(/rate_limit/);
      expect(fetched.status, label).toBe(429);
      expect(fetched.body, label).toMatchObject({ error: { message: expect.any(String) } });
    }
  });

  it("refuses a JSON body its contract does not accept (400 naming it), identically", async () => {
    for (const entry of entries()) {
      const schema = (
        entry.def.contract.request?.body?.content?.["application/json"] as
          { schema?: { safeParse(v: unknown): { success: boolean } } } | undefined
      )?.schema;
      if (!schema || schema.safeParse("not an object").success) continue;
      const label = `${entry.method} ${entry.template}`;
      const [node, fetched] = await both(
        concretePath(entry),
        requestFor(entry, { "X-API-Key": key }, JSON.stringify("not an object")),
      );
      expect(node.status, label).toBe(400);
      expect(JSON.stringify(node.body), label).toMatch(/invalid request/);
      expect(fetched, label).toEqual(node);
    }
  });

  it("answers a method the path is not served with 405 and Allow, identically", async () => {
    for (const entry of entries()) {
      const path = concretePath(entry);
      const allowed = gw.app.table.allowed(path);
      const method = ["PUT", "PATCH", "DELETE", "POST", "GET"].find((m) => !allowed.includes(m))!;
      const label = `${method} ${entry.template}`;
      const [node, fetched] = await both(path, {
        method,
        headers: { "X-API-Key": key, "X-Request-Id": "contract-check" },
      });
      expect(node.status, label).toBe(405);
      expect(node.headers.allow?.split(", "), label).toContain(entry.method);
      expect(fetched, label).toEqual(node);
    }
  });
});

/** Routes the upstream-down check cannot call with generated input, and why. */
const SKIPPED: Record<string, string> = {
  "POST /v1/llm/transcribe":
    "its body is a multipart audio upload, which no JSON Schema instance makes (test/llm-media.test.ts sends one)",
};

// Every credential a route checks before calling its upstream, so none stops at "not configured" (503).
const CREDENTIALS = [
  ...PROVIDERS.filter((p) => !p.keyless).map((p) => p.credential),
  ...["ELEVENLABS_API_KEY", "WAQI_TOKEN", "NEWS_API_KEY", "SERPER_API_KEY", "ALPHAVANTAGE_API_KEY"],
  ...["MAL_CLIENT_ID", "WOLFRAM_APP_ID", "YOUTUBE_API_KEY", "GITHUB_TOKEN", "MASTODON_ACCESS_TOKEN"],
];

const UPSTREAM_FAILED = [502, 503, 504];

/**
 * A 503 from a circuit breaker: the upstream client's (after 5 failures in a row) or the LLM router's
 * (every deployment of a model failing). Breakers are process-wide state both adapters share, so a
 * second gateway would not separate them, and with routes running four at a time no call order keeps
 * their failure counts equal for both adapters. What a breaker may change is the later call's answer
 * from "could not be reached" to "open circuit, try again": the same class of failure, said so.
 */
const breakerOpen = (a: Answer) =>
  a.status === 503 &&
  /temporarily unavailable after repeated failures|circuit breaker is open/.test(JSON.stringify(a.body));

/** The error body a route's surface promises: OpenAI's, Anthropic's, or the gateway's own message. */
function expectErrorShape(entry: TableEntry, answer: Answer, label: string) {
  if (entry.respond.errors === toOpenAIError) {
    expect(answer.body, label).toMatchObject({ error: { message: expect.any(String), type: expect.any(String) } });
  } else if (entry.respond.errors === toAnthropicError) {
    expect(answer.body, label).toMatchObject({
      type: "error",
      error: { type: expect.any(String), message: expect.any(String) },
    });
  } else {
    expect(gatewayErrorMessage(answer.body as ErrorBody), label).toEqual(expect.any(String));
  }
}

/**
 * Every route with valid input while every upstream refuses connections: no 500, the same answer from
 * both adapters, and either an upstream failure (502, 503, 504) in the surface's error shape or an
 * answer the route gives without an upstream (its own data, a queued job, a 4xx for input its contract
 * lets through but it checks itself).
 */
describe("every route answers an unreachable upstream the same through both adapters", () => {
  let gw: TestGateway;
  const realEnv = process.env;

  beforeAll(async () => {
    // A loopback port nothing listens on: a connection to it is refused at once.
    const closed = await listen(net.createServer());
    const dead = closed.url;
    await closed.close();
    // Every UPSTREAM_<NAME>_URL an upstream's origin is read from, whichever names the code uses.
    process.env = new Proxy(realEnv, {
      get: (env, name) => (typeof name === "string" && /^UPSTREAM_.+_URL$/.test(name) ? dead : Reflect.get(env, name)),
    });
    for (const name of CREDENTIALS) vi.stubEnv(name, "test-credential");
    gw = await startTestGateway({ env: { LLM_TIMEOUT_MS: "3000", PROXY_TIMEOUT_MS: "3000" } });
  });
  afterAll(async () => {
    await gw?.close();
    vi.unstubAllEnvs();
    process.env = realEnv;
  });

  it("skips only the routes it says why for", () => {
    const refused = gw.app.table.entries.flatMap((entry) => {
      const input = validRouteInput(entry);
      return typeof input === "string" ? [`${entry.method} ${entry.template}`] : [];
    });
    expect(refused.sort()).toEqual(Object.keys(SKIPPED).sort());
  });

  it("answers each route's valid input alike from both adapters, never 500", { timeout: 110_000 }, async () => {
    // Four at a time: a route waiting on retries' backoff leaves the CPU to others, and no more than four
    // gateway calls compete on a busy 2-core machine.
    const limit = concurrencyLimit(4);
    const entries = gw.app.table.entries.filter((e) => !(`${e.method} ${e.template}` in SKIPPED));
    await Promise.all(
      entries.map((entry) =>
        limit(async () => {
          const label = `${entry.method} ${entry.template}`;
          const input = validRouteInput(entry);
          if (typeof input === "string") throw new Error(`${label}: ${input}`);
          // A key of its own per route: one route's calls never spend another's limits.
          const { key } = await gw.key({ minute: 1_000_000, day: 1_000_000, concurrency: 1000 });
          const init = (): RequestInit => ({
            method: entry.method,
            headers: {
              "X-Request-Id": "upstream-down",
              "X-API-Key": key,
              ...(input.body !== undefined ? { "content-type": "application/json" } : {}),
            },
            ...(input.body !== undefined ? { body: input.body } : {}),
          });
          const where = `${label} (${input.path} ${input.body ?? ""})`.slice(0, 400);
          const node = await read(await gw.request(input.path, init()));
          const fetched = await read(await gw.app.fetch(new Request(gw.url + input.path, init())));
          for (const answer of [node, fetched]) {
            expect(answer.status, where).not.toBe(500);
            expect(answer.headers["x-request-id"], where).toBe("upstream-down");
            expect(answer.status, where).toSatisfy(
              (s: number) => UPSTREAM_FAILED.includes(s) || (s >= 200 && s < 300) || (s >= 400 && s < 500),
            );
            if (answer.status >= 400) expectErrorShape(entry, answer, where);
          }
          if (node.status !== fetched.status && UPSTREAM_FAILED.includes(node.status) && breakerOpen(fetched)) return;
          expect(fetched.status, where).toBe(node.status);
          // Error answers alike to the letter; a success may hold ids or counts of its own call.
          if (node.status >= 400) expect(fetched.body, where).toEqual(node.body);
        }),
      ),
    );
  });
});
