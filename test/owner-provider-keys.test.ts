import http from "node:http";
import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import { ownerCredentials } from "../lib/llm/routing/owner-credentials.ts";
import { backendEnv } from "./support/backends.ts";
import { listen, type Listening } from "./support/listen.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

/**
 * Owners' own provider keys on the model router (GATEWAY_OWNER_KEYS): a user who stored an OpenAI key
 * has their calls reach OpenAI with it, everyone else with the operator's; what happens when the
 * provider refuses the owner's key, under each policy; and a change on one instance reaching another.
 */

const OPERATOR = "sk-operator-Qw3Er5Ty7Ui9Op1As";
const ALICE = "sk-alice-Zx2Cv4Bn6Mm8Lk0Jh";
const ALICE_NEW = "sk-alice-new-Gf5Ds3Aq1Wp9Ol";
const REFUSED = "sk-revoked-Rt6Yh8Uj0Ik2Ol4P";

type FakeOpenAI = Listening & { seen: string[]; accepted: Set<string> };

/** OpenAI's Chat Completions answering any key it accepts, 401 to others; `seen` holds each call's bearer key. */
async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const seen: string[] = [];
  const accepted = new Set([OPERATOR, ALICE, ALICE_NEW]);
  const served = await listen(
    http.createServer((req, res) => {
      req.resume();
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      seen.push(key);
      res.writeHead(accepted.has(key) ? 200 : 401, { "content-type": "application/json" });
      if (!accepted.has(key)) {
        res.end(JSON.stringify({ error: { message: "Incorrect API key provided", code: "invalid_api_key" } }));
        return;
      }
      res.end(
        JSON.stringify({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created: 1_760_000_000,
          model: "gpt-4.1",
          choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
        }),
      );
    }),
  );
  return Object.assign(served, { seen, accepted });
}

type Gateway = { rt: Runtime; served: ServedGateway; logs: string[]; alice: string; bob: string };

/** A gateway on `env`, its every log line kept, with keys for two portal users, alice and bob. */
async function startGateway(env: Record<string, string>): Promise<Gateway> {
  const logs: string[] = [];
  const rt = await createRuntime(
    loadConfig(env),
    pino({ level: "trace" }, { write: (line: string) => void logs.push(line) }),
  );
  const served = await serveGateway(createApp(rt));
  const issue = async (email: string) => (await createKey(rt.db, { name: email, email }, "test")).key;
  return { rt, served, logs, alice: await issue("alice@example.test"), bob: await issue("bob@example.test") };
}

async function call(gw: Gateway, key: string, method: string, path: string, body?: unknown) {
  return gw.served.request(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

const chat = (gw: Gateway, key: string) =>
  call(gw, key, "POST", "/v1/chat/completions", {
    model: "openai/gpt-4.1",
    messages: [{ role: "user", content: "whose key?" }],
  });

/** The bearer keys one chat reached OpenAI with, in order, and its answer. */
async function keysOfChat(gw: Gateway, fake: FakeOpenAI, key: string) {
  const before = fake.seen.length;
  const res = await chat(gw, key);
  const text = await res.text();
  return { res, text, keys: fake.seen.slice(before) };
}

async function storeKey(gw: Gateway, key: string, secret: string) {
  const res = await call(gw, key, "PUT", "/v1/provider-keys/openai", { secret });
  expect([200, 201]).toContain(res.status);
}

const secretKeys = () => `k1:${randomBytes(32).toString("base64")}`;

describe("owners' provider keys on the router", () => {
  let fake: FakeOpenAI;
  const saved = { ...process.env };
  const gateways: Gateway[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  async function gatewayWith(policy: string | undefined): Promise<Gateway> {
    const backend = await backendEnv("pglite");
    cleanups.push(backend.cleanup);
    const gw = await startGateway({
      ...backend.env,
      OPENAI_API_KEY: OPERATOR,
      UPSTREAM_OPENAI_URL: fake.url,
      GATEWAY_SECRET_KEYS: secretKeys(),
      ...(policy !== undefined && { GATEWAY_OWNER_KEYS: policy }),
    });
    gateways.push(gw);
    return gw;
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    // Provider calls read the operator's key and the provider's origin from the process's environment.
    Object.assign(process.env, { OPENAI_API_KEY: OPERATOR, UPSTREAM_OPENAI_URL: fake.url });
  });
  afterAll(async () => {
    process.env = saved;
    for (const gw of gateways) {
      await gw.served.close();
      await gw.rt.close();
    }
    for (const cleanup of cleanups) await cleanup();
    await fake?.close();
  });

  describe("prefer (the default)", () => {
    let gw: Gateway;
    beforeAll(async () => {
      gw = await gatewayWith(undefined);
    });

    it("sends a user's call on the OpenAI key they stored, and another user's on the operator's", async () => {
      await storeKey(gw, gw.alice, ALICE);
      const alice = await keysOfChat(gw, fake, gw.alice);
      expect(alice.res.status).toBe(200);
      expect(alice.keys).toEqual([ALICE]);
      expect(alice.res.headers.get("x-gateway-credential")).toBe("owner");
      expect(alice.res.headers.get("x-gateway-provider")).toBe("openai");
      const bob = await keysOfChat(gw, fake, gw.bob);
      expect(bob.res.status).toBe(200);
      expect(bob.keys).toEqual([OPERATOR]);
      expect(bob.res.headers.get("x-gateway-credential")).toBeNull();
    });

    it("uses a replaced key at once, and the operator's again once the user deletes theirs", async () => {
      await storeKey(gw, gw.alice, ALICE_NEW);
      expect((await keysOfChat(gw, fake, gw.alice)).keys).toEqual([ALICE_NEW]);
      expect((await call(gw, gw.alice, "DELETE", "/v1/provider-keys/openai")).status).toBe(204);
      const after = await keysOfChat(gw, fake, gw.alice);
      expect(after.res.status).toBe(200);
      expect(after.keys).toEqual([OPERATOR]);
    });

    it("falls over to the operator's key when OpenAI refuses the user's (401), and says so in the attempts", async () => {
      await storeKey(gw, gw.alice, REFUSED);
      const { res, keys } = await keysOfChat(gw, fake, gw.alice);
      expect(res.status).toBe(200);
      expect(keys).toEqual([REFUSED, OPERATOR]);
      expect(res.headers.get("x-gateway-attempts")).toBe("2");
      expect(res.headers.get("x-gateway-credential")).toBeNull();
      expect((await call(gw, gw.alice, "DELETE", "/v1/provider-keys/openai")).status).toBe(204);
    });

    it("meters a call on the owner's key as any other, marked as on their key in the request log", async () => {
      await storeKey(gw, gw.alice, ALICE);
      const res = await chat(gw, gw.alice);
      expect(res.headers.get("x-gateway-credential")).toBe("owner");
      const requestId = res.headers.get("x-request-id")!;
      await res.arrayBuffer();
      await gw.rt.meter.flush();
      const event = await gw.rt.db.prisma.usageEvent.findFirstOrThrow({ where: { requestId } });
      expect(event).toMatchObject({ provider: "openai", model: "gpt-4.1", promptTokens: 3, completionTokens: 1 });
      // The mark: the request log's attempts say the answer came on the owner's key.
      expect(event.attempts).toEqual([
        expect.objectContaining({ deployment: "openai/gpt-4.1", outcome: "ok", ownerKey: true }),
      ]);
    });

    it("keeps the owner's failures off the deployment's breaker: others' calls still go out", async () => {
      await storeKey(gw, gw.alice, REFUSED);
      // More refusals than the breaker's threshold (5).
      for (let i = 0; i < 6; i++) expect((await chat(gw, gw.alice)).status).toBe(200);
      const bob = await keysOfChat(gw, fake, gw.bob);
      expect(bob.res.status).toBe(200);
      expect(bob.keys).toEqual([OPERATOR]);
      expect((await call(gw, gw.alice, "DELETE", "/v1/provider-keys/openai")).status).toBe(204);
    });

    it("writes no stored key into any log line", () => {
      for (const secret of [ALICE, ALICE_NEW, REFUSED]) expect(gw.logs.join("\n")).not.toContain(secret);
    });
  });

  describe("only", () => {
    let gw: Gateway;
    beforeAll(async () => {
      gw = await gatewayWith("only");
    });

    it("uses the owner's key, never the operator's for them, even when OpenAI refuses theirs", async () => {
      await storeKey(gw, gw.alice, ALICE);
      expect((await keysOfChat(gw, fake, gw.alice)).keys).toEqual([ALICE]);
      await storeKey(gw, gw.alice, REFUSED);
      const refused = await keysOfChat(gw, fake, gw.alice);
      expect(refused.res.status).toBe(502);
      expect(refused.text).toContain("openai refused the openai key you stored");
      expect(refused.keys).toEqual([REFUSED]);
    });

    it("still calls on the operator's key for a user who stored none", async () => {
      expect((await keysOfChat(gw, fake, gw.bob)).keys).toEqual([OPERATOR]);
    });
  });

  describe("off", () => {
    it("calls on the operator's key although the user stored one", async () => {
      const gw = await gatewayWith("off");
      await storeKey(gw, gw.alice, ALICE);
      const { res, keys } = await keysOfChat(gw, fake, gw.alice);
      expect(res.status).toBe(200);
      expect(keys).toEqual([OPERATOR]);
    });
  });

  it("refuses a GATEWAY_OWNER_KEYS it does not know at start", () => {
    expect(() => loadConfig({ GATEWAY_OWNER_KEYS: "sometimes" })).toThrow(/GATEWAY_OWNER_KEYS takes prefer, only, off/);
  });
});

describe.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)("owners' provider keys across instances", () => {
  let a: Runtime;
  let b: Runtime;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const backend = await backendEnv("postgres", "redis");
    cleanup = backend.cleanup;
    const env = { ...backend.env, GATEWAY_SECRET_KEYS: secretKeys() };
    a = await createRuntime(loadConfig(env), pino({ level: "silent" }));
    b = await createRuntime(loadConfig(env), pino({ level: "silent" }));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await cleanup?.();
  });

  it("a key stored or deleted on one instance is what the other uses next, before its cache goes stale", async () => {
    const owner = (await createKey(a.db, { name: "carol", email: "carol@example.test" }, "test")).record.userId!;
    await ownerCredentials(a).store(owner, "openai", ALICE);
    await ownerCredentials(b).listening;
    // B reads it once and keeps it fresh for 30 s: only the announcement can change it sooner.
    expect(await ownerCredentials(b).credentialFor(owner, "openai")).toBe(ALICE);
    await ownerCredentials(a).store(owner, "openai", ALICE_NEW);
    await expect.poll(() => ownerCredentials(b).credentialFor(owner, "openai"), { timeout: 10_000 }).toBe(ALICE_NEW);
    await ownerCredentials(a).delete(owner, "openai");
    await expect.poll(() => ownerCredentials(b).credentialFor(owner, "openai"), { timeout: 10_000 }).toBeUndefined();
  });
});
