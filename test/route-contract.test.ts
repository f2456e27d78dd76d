import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TableEntry } from "../lib/gateway/pipeline/route-table.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

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
