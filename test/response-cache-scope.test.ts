import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setKeyCachePolicy } from "../lib/gateway/keys/key-changes.ts";
import { createOrganisation, createTeam } from "../lib/gateway/teams/team-changes.ts";
import { publishKeyChange } from "../lib/portal/keys/publish-change.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

/** A key's cache policy may share its answers with its user's other keys, or its team's: never past them. */
describe("the response cache shared by a key's user or team, by the operator's policy", () => {
  let gw: TestGateway;
  let xai: FakeLlm;
  const saved = { ...process.env };
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Shared within, never past." });
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    gw = await startTestGateway();
    const org = await createOrganisation(gw.rt.db, { name: "Scope org" }, "test");
    const [red, blue] = [
      await createTeam(gw.rt.db, { organisation: org.id, name: "Red" }, "test"),
      await createTeam(gw.rt.db, { organisation: org.id, name: "Blue" }, "test"),
    ];
    const policy = (cacheScope: "key" | "user" | "team") => ({ cacheMaxAge: 600, cacheScope });
    const issue = async (name: string, input: object) => (keys[name] = (await gw.key({ name, ...input })).key);
    await issue("alice1", { email: "alice@example.test", ...policy("user") });
    await issue("alice2", { email: "alice@example.test", ...policy("user") });
    await issue("aliceOwn", { email: "alice@example.test", ...policy("key") });
    await issue("bob", { email: "bob@example.test", ...policy("user") });
    await issue("red1", { team: red.id, ...policy("team") });
    await issue("red2", { team: red.id, ...policy("team") });
    await issue("blue", { team: blue.id, ...policy("team") });
  });
  afterAll(async () => {
    process.env = saved;
    await gw?.close();
    await xai?.close();
  });

  const ask = (key: string, content: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${keys[key]}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "xai/grok-4", messages: [{ role: "user", content }] }),
    });
  const state = async (key: string, content: string) => (await ask(key, content)).headers.get("x-gateway-cache");

  it("shares answers among one user's keys, not with the same user's key kept to itself, nor with another user", async () => {
    expect(await state("alice1", "user question")).toBe("miss");
    expect(await state("alice2", "user question")).toBe("hit");
    expect(await state("aliceOwn", "user question")).toBe("miss");
    expect(await state("bob", "user question")).toBe("miss");
  });

  it("shares answers among one team's keys, and never with another team's", async () => {
    const sent = xai.requests.length;
    expect(await state("red1", "team question")).toBe("miss");
    const hit = await ask("red2", "team question");
    expect(hit.headers.get("x-gateway-cache")).toBe("hit");
    expect(((await hit.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      "Shared within, never past.",
    );
    expect(await state("blue", "team question")).toBe("miss");
    expect(xai.requests.length).toBe(sent + 2);
  });

  it("DELETE /v1/cache clears the pool the caller's policy shares, and leaves other pools alone", async () => {
    await state("alice1", "cleared question");
    await state("red1", "cleared question");
    const cleared = await gw.request("/v1/cache", {
      method: "DELETE",
      headers: { authorization: `Bearer ${keys.alice2}` },
    });
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { deleted: number }).deleted).toBeGreaterThanOrEqual(2);
    expect(await state("alice1", "cleared question")).toBe("miss");
    expect(await state("red2", "cleared question")).toBe("hit");
  });

  it("applies a policy the operator sets on a working key at once, and audits it", async () => {
    const { id, key } = await gw.key({ name: "later", email: "carol@example.test" });
    keys.later = key;
    expect(await state("later", "later question")).toBeNull();
    const record = await setKeyCachePolicy(
      gw.rt.db,
      id,
      { maxAge: 60, semantic: false, scope: "user" },
      "ops@example.test",
    );
    await publishKeyChange(gw.rt, record!);
    expect(await state("later", "later question")).toBe("miss");
    expect(await state("later", "later question")).toBe("hit");
    const audit = await gw.rt.db.prisma.auditLog.findFirst({ where: { action: "key.cache", target: id } });
    expect(audit).toMatchObject({ actor: "ops@example.test", detail: { to: { max_age: 60, scope: "user" } } });
  });
});
