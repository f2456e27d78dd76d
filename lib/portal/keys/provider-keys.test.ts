import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import type { Database } from "../../db/client.ts";
import { OwnerCredentials } from "../../llm/routing/owner-credentials.ts";
import { secretBoxFromEnv } from "../../llm/routing/secret-box.ts";
import { deleteProviderKey, providerKeyRows, saveProviderKey } from "./provider-keys.ts";

const SECRET = "sk-proj-Portal0Key1Abc2Def3";
const REPLACEMENT = "sk-proj-Portal9Key8Xyz7Wvu6";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

async function user(db: Database): Promise<string> {
  const id = randomUUID();
  await db.prisma.user.create({ data: { id, email: `${id}@example.test` } });
  return id;
}

describe.each(databaseBackends)("the portal's provider keys page on %s", (backend) => {
  const t = useDatabase(backend);
  const box = secretBoxFromEnv(`k1:${randomBytes(32).toString("base64")}`)!;
  const credentials = () =>
    new OwnerCredentials(t.db, box, {
      freshMs: 30_000,
      maxAgeMs: 300_000,
      maxEntries: 100,
      touchEveryMs: 60_000,
      onError: vi.fn(),
    });

  it("adds a key, lists it by its last four characters only, and never answers with the key", async () => {
    const store = credentials();
    const owner = await user(t.db);
    const saved = await saveProviderKey(store, owner, form({ provider: "openai", secret: ` ${SECRET} `, label: "" }));
    expect(saved).toEqual({ message: expect.stringContaining("ending in Def3 is stored") });
    const rows = await providerKeyRows(store, owner);
    expect(rows).toEqual([
      { provider: "openai", label: "default", last4: "Def3", updated: expect.stringMatching(/ UTC$/), lastUsed: "—" },
    ]);
    expect(JSON.stringify([saved, rows])).not.toContain(SECRET.slice(0, 12));
    expect(await providerKeyRows(store, await user(t.db))).toEqual([]);
  });

  it("replacing a key is used by the router's cache at once, and deleting it leaves the operator's", async () => {
    const store = credentials();
    const owner = await user(t.db);
    await saveProviderKey(store, owner, form({ provider: "anthropic", secret: SECRET }));
    expect(await store.credentialFor(owner, "anthropic")).toBe(SECRET);
    const replaced = await saveProviderKey(store, owner, form({ provider: "anthropic", secret: REPLACEMENT }));
    expect(replaced.message).toContain("replaced the one stored before");
    expect(await store.credentialFor(owner, "anthropic")).toBe(REPLACEMENT);
    expect(await deleteProviderKey(store, owner, form({ provider: "anthropic" }))).toEqual({
      message: "Your anthropic key is deleted.",
    });
    expect(await store.credentialFor(owner, "anthropic")).toBeUndefined();
    expect(await deleteProviderKey(store, owner, form({ provider: "anthropic" }))).toEqual({
      error: "no anthropic key of yours is stored",
    });
  });

  it("refuses an unknown provider, a keyless one, a short key or a bad label, storing nothing and echoing no key", async () => {
    const store = credentials();
    const owner = await user(t.db);
    const refusals = await Promise.all([
      saveProviderKey(store, owner, form({ provider: "acme", secret: SECRET })),
      saveProviderKey(store, owner, form({ provider: "ollama", secret: SECRET })),
      saveProviderKey(store, owner, form({ provider: "openai", secret: "short" })),
      saveProviderKey(store, owner, form({ provider: "openai", secret: SECRET, label: "no/slashes" })),
      saveProviderKey(store, owner, form({ provider: "openai" })),
    ]);
    for (const refusal of refusals) expect(refusal.error).toBeTruthy();
    expect(refusals[0]!.error).toMatch(/^Provider: one of /);
    expect(refusals[2]!.error).toMatch(/^Key: the provider.s API key, 12-4096/);
    expect(JSON.stringify(refusals)).not.toContain(SECRET.slice(0, 12));
    expect(await providerKeyRows(store, owner)).toEqual([]);
  });

  it("keeps keys apart by label, and deletes only the one named", async () => {
    const store = credentials();
    const owner = await user(t.db);
    await saveProviderKey(store, owner, form({ provider: "openai", secret: SECRET, label: "work" }));
    await saveProviderKey(store, owner, form({ provider: "openai", secret: REPLACEMENT, label: "home" }));
    expect((await deleteProviderKey(store, owner, form({ provider: "openai", label: "work" }))).message).toBe(
      "Your openai key (“work”) is deleted.",
    );
    expect((await providerKeyRows(store, owner)).map((r) => r.label)).toEqual(["home"]);
  });
});
