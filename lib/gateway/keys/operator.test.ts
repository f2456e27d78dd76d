import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { requestKey } from "./key-requests.ts";
import { OPERATOR_FILE, operatorApp, readOperatorEndpoint, startOperatorServer } from "./operator.ts";

describe.each(databaseBackends)("the operator endpoint (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("answers 400, not 500, for a key name or id holding NUL or a lone surrogate, and keeps serving", async () => {
    const app = operatorApp(gw.rt, "tok");
    const headers = { authorization: "Bearer tok", "content-type": "application/json" };
    const create = (body: string) => app.request("/keys", { method: "POST", headers, body });
    for (const body of ['{"name":"laptop\\u0000"}', '{"name":"laptop \\ud800"}']) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/NUL characters or unpaired surrogates/);
    }
    const revoke = await app.request("/keys/a%00b/revoke", { method: "POST", headers });
    expect(revoke.status).toBe(400);
    expect((await revoke.json()).error).toMatch(/^id: /);
    expect((await create('{"name":"laptop"}')).status).toBe(201);
  });
});

describe("operator.json belongs to the process that wrote it", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });
  const file = () => path.join(gw.rt.config.dataDir, OPERATOR_FILE);

  it("publishes its endpoint (mode 0600) and removes it on close", async () => {
    const operator = await startOperatorServer(gw.rt);
    const endpoint = readOperatorEndpoint(gw.rt.config.dataDir)!;
    expect(endpoint.pid).toBe(process.pid);
    expect(fs.statSync(file()).mode & 0o777).toBe(0o600);
    const res = await fetch(`${endpoint.url}/keys`, { headers: { authorization: `Bearer ${endpoint.token}` } });
    expect(res.status).toBe(200);
    await operator.close();
    expect(fs.existsSync(file())).toBe(false);
  });

  it("leaves a live owner's file alone: neither overwritten on start nor removed on close", async () => {
    // Another gateway on the same DATA_DIR (as with DATABASE_URL): a live process that owns the file.
    const owner = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      const theirs = JSON.stringify({ url: "http://127.0.0.1:1", token: "theirs", pid: owner.pid });
      fs.writeFileSync(file(), theirs, { mode: 0o600 });
      const operator = await startOperatorServer(gw.rt);
      expect(fs.readFileSync(file(), "utf8")).toBe(theirs);
      await operator.close();
      expect(fs.readFileSync(file(), "utf8")).toBe(theirs);
    } finally {
      owner.kill();
      await new Promise((resolve) => owner.once("exit", resolve));
    }
    // Its owner gone, the file is stale: the next start takes it over.
    const operator = await startOperatorServer(gw.rt);
    expect(readOperatorEndpoint(gw.rt.config.dataDir)?.pid).toBe(process.pid);
    await operator.close();
  });
});

describe("key requests through the operator endpoint (the keys CLI's)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });
  const headers = { authorization: "Bearer tok", "content-type": "application/json" };
  const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

  it("lists the waiting queue, approves one, declines another with a note, and refuses a second decision", async () => {
    const app = operatorApp(gw.rt, "tok");
    const asked = [];
    for (const email of ["first@example.test", "second@example.test"]) {
      const user = await gw.rt.db.prisma.user.create({ data: { email } });
      asked.push(await requestKey(gw.rt.db, user.id, REQUEST, { mode: "manual" }));
    }
    const list = await (await app.request("/requests", { headers })).json();
    expect(list).toMatchObject({ page: 1, pages: 1, total: 2 });
    expect(list.requests).toEqual([
      expect.objectContaining({
        id: asked[0]!.id,
        email: "first@example.test",
        status: "pending",
        use_type: "research",
      }),
      expect.objectContaining({ id: asked[1]!.id, email: "second@example.test", status: "pending" }),
    ]);

    const decide = (id: string, verb: string, body: unknown = {}) =>
      app.request(`/requests/${encodeURIComponent(id)}/${verb}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
    const approved = await decide(asked[0]!.id, "approve");
    expect(await approved.json()).toEqual({
      id: asked[0]!.id,
      status: "approved",
      email: "first@example.test",
      note: null,
      mail: "unsent",
    });
    const declined = await decide(asked[1]!.id, "decline", { note: "Say more about the use" });
    expect(await declined.json()).toMatchObject({ status: "declined", note: "Say more about the use" });
    const again = await decide(asked[0]!.id, "decline");
    expect(again.status).toBe(404);
    expect((await again.json()).error).toMatch(/no pending key request with id kr_/);
    expect((await (await app.request("/requests", { headers })).json()).total).toBe(0);
    const decided = await (await app.request("/requests?status=decided", { headers })).json();
    expect(decided.requests.map((r: { decided_by: string }) => r.decided_by)).toEqual(["operator-cli", "operator-cli"]);
  });

  it("answers 400 for a bad status, id or note", async () => {
    const app = operatorApp(gw.rt, "tok");
    expect((await app.request("/requests?status=maybe", { headers })).status).toBe(400);
    const bad = await app.request("/requests/a%00b/approve", { method: "POST", headers, body: "{}" });
    expect(bad.status).toBe(400);
    const long = await app.request("/requests/kr_x/decline", {
      method: "POST",
      headers,
      body: JSON.stringify({ note: "x".repeat(1001) }),
    });
    expect(long.status).toBe(400);
    expect((await app.request("/requests/kr_x/approve", { method: "POST", headers, body: "{" })).status).toBe(400);
  });
});

describe.runIf(process.env.REDIS_URL)("keys created on the operator endpoint, with Redis", () => {
  it("are announced on the key channel, so other instances drop a cached 'unknown' at once", async () => {
    const gw = await startTestGateway({ limits: "redis" });
    const listener = new Redis(process.env.REDIS_URL!);
    try {
      const heard: string[] = [];
      listener.on("message", (_channel, hash: string) => heard.push(hash));
      await listener.subscribe("gw:keys:changed");
      const res = await operatorApp(gw.rt, "t0ken").request("/keys", {
        method: "POST",
        headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
        body: JSON.stringify({ name: "announced" }),
      });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      const { hash } = await gw.rt.db.prisma.apiKey.findUniqueOrThrow({ where: { id } });
      await expect.poll(() => heard, { timeout: 2000 }).toContain(hash);
    } finally {
      await listener.quit();
      await gw.close();
    }
  });
});
