import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../lib/app.ts";
import { loadConfig } from "../lib/config.ts";
import { createKey } from "../lib/gateway/keys/key-changes.ts";
import { createRuntime, type Runtime } from "../lib/gateway/runtime/runtime.ts";
import { ownerCredentials } from "../lib/llm/routing/owner-credentials.ts";
import { backendEnv, databaseBackends } from "./support/backends.ts";
import { startTestGateway } from "./support/gateway.ts";
import { serveGateway, type ServedGateway } from "./support/serve-gateway.ts";

const ALICE_SECRET = "sk-alice-Zq8v2Lr0Tm4Wx6Yb3Nc1";
const BOB_SECRET = "sk-bob-Pp7Hh5Gg3Ff1Dd9Ss2Aa";

describe.each(databaseBackends)("provider keys over HTTP on %s", (backend) => {
  let rt: Runtime;
  let served: ServedGateway;
  let cleanup: () => Promise<void>;
  // Every log line the gateway writes, at every level, and every answer's body: none may hold a secret.
  const logs: string[] = [];
  const answers: string[] = [];
  const keys = {} as Record<"alice" | "aliceOther" | "aliceData" | "bob" | "cli", string>;

  beforeAll(async () => {
    const env = await backendEnv(backend);
    cleanup = env.cleanup;
    const logger = pino({ level: "trace" }, { write: (line: string) => void logs.push(line) });
    rt = await createRuntime(
      loadConfig({ ...env.env, GATEWAY_SECRET_KEYS: `k1:${randomBytes(32).toString("base64")}` }),
      logger,
    );
    served = await serveGateway(createApp(rt));
    const issue = async (input: Parameters<typeof createKey>[1]) => (await createKey(rt.db, input, "test")).key;
    keys.alice = await issue({ name: "alice", email: "alice@example.test" });
    keys.aliceOther = await issue({ name: "alice two", email: "alice@example.test", scopes: ["llm"] });
    keys.aliceData = await issue({ name: "alice data", email: "alice@example.test", scopes: ["data"] });
    keys.bob = await issue({ name: "bob", email: "bob@example.test" });
    keys.cli = await issue({ name: "operator's" });
  });
  afterAll(async () => {
    await served?.close();
    await rt?.close();
    await cleanup?.();
  });

  async function call(key: string, method: string, path: string, body?: unknown) {
    const res = await served.request(path, {
      method,
      headers: { "X-API-Key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    answers.push(text);
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }
  const userId = async (email: string) => (await rt.db.prisma.user.findUniqueOrThrow({ where: { email } })).id;

  it("stores a key (201, then 200 on replacing it) and answers with its last four characters only", async () => {
    const first = await call(keys.alice, "PUT", "/v1/provider-keys/openai", { secret: ALICE_SECRET });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ provider: "openai", label: "default", last4: "3Nc1" });
    expect(first.body).not.toHaveProperty("secret");
    const again = await call(keys.alice, "PUT", "/v1/provider-keys/openai", { secret: ALICE_SECRET });
    expect(again.status).toBe(200);
  });

  it("lists it for every key of the same user, and for no one else", async () => {
    const listed = await call(keys.aliceOther, "GET", "/v1/provider-keys");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      provider_keys: [expect.objectContaining({ provider: "openai", label: "default", last4: "3Nc1" })],
    });
    expect(await call(keys.bob, "GET", "/v1/provider-keys")).toEqual({ status: 200, body: { provider_keys: [] } });
  });

  it("gives the router the owner's key in plaintext, and another user their own", async () => {
    expect((await call(keys.bob, "PUT", "/v1/provider-keys/openai", { secret: BOB_SECRET })).status).toBe(201);
    const credentials = ownerCredentials(rt);
    expect(await credentials.credentialFor(await userId("alice@example.test"), "openai")).toBe(ALICE_SECRET);
    expect(await credentials.credentialFor(await userId("bob@example.test"), "openai")).toBe(BOB_SECRET);
    expect(await credentials.credentialFor(await userId("bob@example.test"), "anthropic")).toBeUndefined();
  });

  it("does not let another user delete it: bob's delete reaches only bob's key", async () => {
    expect((await call(keys.bob, "DELETE", "/v1/provider-keys/openai?label=work")).status).toBe(404);
    expect((await call(keys.bob, "DELETE", "/v1/provider-keys/openai")).status).toBe(204);
    expect((await call(keys.bob, "DELETE", "/v1/provider-keys/openai")).status).toBe(404);
    const listed = await call(keys.alice, "GET", "/v1/provider-keys");
    expect(listed.body).toEqual({ provider_keys: [expect.objectContaining({ last4: "3Nc1" })] });
  });

  it("refuses a key without a user, a key without the llm scope, an unknown provider and a malformed secret", async () => {
    const cli = await call(keys.cli, "GET", "/v1/provider-keys");
    expect(cli).toMatchObject({ status: 403, body: { error: expect.stringMatching(/portal user/) } });
    expect((await call(keys.aliceData, "GET", "/v1/provider-keys")).status).toBe(403);
    expect((await call(keys.aliceData, "DELETE", "/v1/provider-keys/openai")).status).toBe(403);
    expect((await call(keys.alice, "PUT", "/v1/provider-keys/nope", { secret: ALICE_SECRET })).status).toBe(400);
    // The local runner takes a URL, not a key (its hosts are registered under /v1/llm/ollama/hosts).
    expect((await call(keys.alice, "PUT", "/v1/provider-keys/ollama", { secret: ALICE_SECRET })).status).toBe(400);
    const spaced = await call(keys.alice, "PUT", "/v1/provider-keys/openai", { secret: `${BOB_SECRET} x` });
    expect(spaced.status).toBe(400);
    expect(JSON.stringify(spaced.body)).not.toContain(BOB_SECRET);
  });

  it("will not open alice's sealed key copied into bob's row", async () => {
    expect((await call(keys.bob, "PUT", "/v1/provider-keys/anthropic", { secret: BOB_SECRET })).status).toBe(201);
    const [alice, bob] = [await userId("alice@example.test"), await userId("bob@example.test")];
    const stolen = await rt.db.prisma.providerCredential.findFirstOrThrow({ where: { ownerId: alice } });
    await rt.db.prisma.providerCredential.updateMany({
      where: { ownerId: bob, provider: "anthropic" },
      data: { sealedSecret: stolen.sealedSecret },
    });
    expect(await ownerCredentials(rt).credentialFor(bob, "anthropic")).toBeUndefined();
    // Moved under bob's name and alice's provider too, it still does not open: the owner is bound in.
    await rt.db.prisma.providerCredential.updateMany({
      where: { ownerId: bob, provider: "anthropic" },
      data: { provider: "openai" },
    });
    expect(await ownerCredentials(rt).credentialFor(bob, "openai")).toBeUndefined();
    expect(logs.some((l) => l.includes("could not be read"))).toBe(true);
  });

  it("deletes it, and the router stops using it at once", async () => {
    expect((await call(keys.alice, "DELETE", "/v1/provider-keys/openai")).status).toBe(204);
    expect(await call(keys.alice, "GET", "/v1/provider-keys")).toEqual({ status: 200, body: { provider_keys: [] } });
    expect(await ownerCredentials(rt).credentialFor(await userId("alice@example.test"), "openai")).toBeUndefined();
  });

  it("never showed a secret in an answer or a log line", () => {
    expect(logs.length).toBeGreaterThan(10);
    for (const text of [...answers, ...logs]) {
      expect(text).not.toContain(ALICE_SECRET);
      expect(text).not.toContain(BOB_SECRET);
    }
  });
});

describe("provider keys without GATEWAY_SECRET_KEYS", () => {
  it("are refused with 503 naming the variable to set", async () => {
    const gw = await startTestGateway();
    try {
      const { key } = await gw.key({ email: "carol@example.test" });
      const res = await gw.request("/v1/provider-keys/openai", {
        method: "PUT",
        headers: { "X-API-Key": key, "content-type": "application/json" },
        body: JSON.stringify({ secret: ALICE_SECRET }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/GATEWAY_SECRET_KEYS/);
    } finally {
      await gw.close();
    }
  });
});
