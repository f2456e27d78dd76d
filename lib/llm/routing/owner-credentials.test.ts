import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import type { Database } from "../../db/client.ts";
import { listCredentials, loadCredential, OwnerCredentials, storeCredential } from "./owner-credentials.ts";
import { SealError, secretBoxFromEnv } from "./secret-box.ts";

const SECRET = "sk-proj-AAAAbbbbCCCCdddd1234";
const newKey = () => randomBytes(32).toString("base64");

async function user(db: Database): Promise<string> {
  const id = randomUUID();
  await db.prisma.user.create({ data: { id, email: `${id}@example.test` } });
  return id;
}

describe.each(databaseBackends)("owner credentials on %s", (backend) => {
  const t = useDatabase(backend);
  const box = secretBoxFromEnv(`k1:${newKey()}`)!;

  function cache(clock = { now: 0 }, onError = vi.fn()) {
    const credentials = new OwnerCredentials(t.db, box, {
      freshMs: 30_000,
      maxAgeMs: 300_000,
      maxEntries: 100,
      touchEveryMs: 60_000,
      onError,
      now: () => clock.now,
    });
    return { credentials, clock, onError };
  }

  it("stores a key sealed, lists only its last four characters, and replaces it under the same label", async () => {
    const owner = await user(t.db);
    const first = await storeCredential(t.db, box, owner, "openai", SECRET);
    expect(first.created).toBe(true);
    const [row] = await t.db.prisma.providerCredential.findMany({ where: { ownerId: owner } });
    expect(row!.sealedSecret).not.toContain(SECRET);
    expect(row!.sealedSecret).not.toContain(SECRET.slice(0, 12));
    const listed = await listCredentials(t.db, owner);
    expect(listed).toEqual([expect.objectContaining({ provider: "openai", label: "default", last4: "1234" })]);
    expect(JSON.stringify(listed)).not.toContain(SECRET);

    const again = await storeCredential(t.db, box, owner, "openai", "sk-replacement-key-9876");
    expect(again.created).toBe(false);
    expect((await listCredentials(t.db, owner)).map((c) => c.last4)).toEqual(["9876"]);
    expect((await loadCredential(t.db, box, owner, "openai"))?.secret).toBe("sk-replacement-key-9876");
  });

  it("keeps one key per label, and the router gets the one stored last", async () => {
    const owner = await user(t.db);
    await storeCredential(t.db, box, owner, "anthropic", "sk-ant-first-key-0001", "work");
    await storeCredential(t.db, box, owner, "anthropic", "sk-ant-second-key-0002", "home");
    expect((await listCredentials(t.db, owner)).map((c) => c.label)).toEqual(["home", "work"]);
    expect((await loadCredential(t.db, box, owner, "anthropic"))?.secret).toBe("sk-ant-second-key-0002");
  });

  it("will not open a sealed key copied into another owner's row", async () => {
    const victim = await user(t.db);
    const attacker = await user(t.db);
    await storeCredential(t.db, box, victim, "openai", SECRET);
    await storeCredential(t.db, box, attacker, "openai", "sk-attacker-own-key-0000");
    const stolen = await t.db.prisma.providerCredential.findFirstOrThrow({ where: { ownerId: victim } });
    await t.db.prisma.providerCredential.updateMany({
      where: { ownerId: attacker },
      data: { sealedSecret: stolen.sealedSecret },
    });
    await expect(loadCredential(t.db, box, attacker, "openai")).rejects.toThrow(SealError);
    const { credentials, onError } = cache();
    expect(await credentials.credentialFor(attacker, "openai")).toBeUndefined();
    expect(onError).toHaveBeenCalledWith(expect.any(SealError), attacker, "openai");
    expect(await credentials.credentialFor(victim, "openai")).toBe(SECRET);
  });

  it("answers from memory within freshMs, then serves the old answer once while it reads again", async () => {
    const owner = await user(t.db);
    const { credentials, clock } = cache();
    expect(await credentials.credentialFor(owner, "groq")).toBeUndefined();
    // Stored behind the cache's back (as another instance would): this instance keeps its answer a while.
    await storeCredential(t.db, box, owner, "groq", "gsk_from_another_instance_42");
    clock.now = 29_000;
    expect(await credentials.credentialFor(owner, "groq")).toBeUndefined();
    clock.now = 31_000;
    expect(await credentials.credentialFor(owner, "groq")).toBeUndefined();
    await vi.waitFor(async () =>
      expect(await credentials.credentialFor(owner, "groq")).toBe("gsk_from_another_instance_42"),
    );
  });

  it("forgets an owner's cached key at once when it is stored or deleted through it", async () => {
    const owner = await user(t.db);
    const { credentials } = cache();
    expect(await credentials.credentialFor(owner, "mistral")).toBeUndefined();
    await credentials.store(owner, "mistral", "mistral-key-abcdef-0001");
    expect(await credentials.credentialFor(owner, "mistral")).toBe("mistral-key-abcdef-0001");
    expect(await credentials.delete(owner, "mistral")).toBe(true);
    expect(await credentials.credentialFor(owner, "mistral")).toBeUndefined();
    expect(await credentials.delete(owner, "mistral")).toBe(false);
  });

  it("marks a key used, at most once per touchEveryMs", async () => {
    const owner = await user(t.db);
    const { credentials, clock } = cache({ now: Date.parse("2026-01-01T00:00:00Z") });
    await credentials.store(owner, "xai", "xai-key-0000-1111-2222");
    await credentials.credentialFor(owner, "xai");
    const lastUsed = async () => (await listCredentials(t.db, owner))[0]!.lastUsedAt?.toISOString();
    await vi.waitFor(async () => expect(await lastUsed()).toBe("2026-01-01T00:00:00.000Z"));
    clock.now += 10_000;
    await credentials.credentialFor(owner, "xai");
    clock.now += 60_000;
    await credentials.credentialFor(owner, "xai");
    await vi.waitFor(async () => expect(await lastUsed()).toBe("2026-01-01T00:01:10.000Z"));
  });

  it("after a rotation opens keys sealed under the old key and seals them again under the new one", async () => {
    const owner = await user(t.db);
    const oldKey = newKey();
    const before = secretBoxFromEnv(`old:${oldKey}`)!;
    await storeCredential(t.db, before, owner, "cohere", "cohere-key-rotation-7777");
    const after = secretBoxFromEnv(`new:${newKey()},old:${oldKey}`)!;
    expect((await loadCredential(t.db, after, owner, "cohere"))?.secret).toBe("cohere-key-rotation-7777");
    const row = await t.db.prisma.providerCredential.findFirstOrThrow({ where: { ownerId: owner } });
    expect(after.sealedWith(row.sealedSecret)).toBe("new");
    const onlyNew = secretBoxFromEnv(`new:${newKey()}`)!;
    await expect(loadCredential(t.db, onlyNew, owner, "cohere")).rejects.toThrow(SealError);
  });

  it("is off without GATEWAY_SECRET_KEYS: changes are refused naming it, and the router gets nothing", async () => {
    const owner = await user(t.db);
    await storeCredential(t.db, box, owner, "openai", SECRET);
    const off = new OwnerCredentials(t.db, undefined, {
      freshMs: 1,
      maxAgeMs: 1,
      maxEntries: 1,
      touchEveryMs: 1,
      onError: vi.fn(),
    });
    await expect(off.store(owner, "openai", SECRET)).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining("GATEWAY_SECRET_KEYS"),
    });
    await expect(off.list(owner)).rejects.toMatchObject({ status: 503 });
    expect(await off.credentialFor(owner, "openai")).toBeUndefined();
  });

  it("deletes an owner's keys with the owner", async () => {
    const owner = await user(t.db);
    await storeCredential(t.db, box, owner, "openai", SECRET);
    await t.db.prisma.user.delete({ where: { id: owner } });
    expect(await t.db.prisma.providerCredential.count({ where: { ownerId: owner } })).toBe(0);
  });
});
