import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { consoleKeyFor } from "./console-key.ts";
import { createKey } from "./key-changes.ts";
import { decideKeyRequest, requestKey } from "./key-requests.ts";
import { consoleModelsOpen, grantConsoleModels, MODEL_AREAS, withModelsWithheld } from "./console-access.ts";
import { SCOPE_AREAS, type KeyRecord } from "./record.ts";

const consoleKey = (scopes: string[]) => ({ id: "key_c", kind: "console", scopes }) as unknown as KeyRecord;

describe("withModelsWithheld", () => {
  it("withholds the model areas the console has, and only those", () => {
    expect(withModelsWithheld(consoleKey(["aac", "llm", "orchestrate", "trove"])).withheld).toEqual([
      "llm",
      "orchestrate",
    ]);
    expect(withModelsWithheld(consoleKey(["aac", "datavis"])).withheld).toEqual([]);
    // CONSOLE_KEY_SCOPES=all: every model area.
    expect(withModelsWithheld(consoleKey([])).withheld).toEqual(MODEL_AREAS);
    expect(MODEL_AREAS.every((a) => (SCOPE_AREAS as readonly string[]).includes(a))).toBe(true);
  });

  it("makes one record per cached record, so requests allocate nothing", () => {
    const record = consoleKey(["llm"]);
    expect(withModelsWithheld(record)).toBe(withModelsWithheld(record));
    expect(withModelsWithheld(record)).not.toBe(record);
  });
});

describe("consoleModelsOpen", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(async () => {
    await gw?.close();
  });
  const manual = { mode: "manual" } as const;
  const open = (userId: string, policy: Parameters<typeof consoleModelsOpen>[2] = manual) =>
    consoleModelsOpen(gw.rt.db, userId, policy);
  const request = { name: "k", intendedUse: "A research project on tides.", useType: "research" } as const;

  it("is open at once only where the policy would approve a request at once", async () => {
    const { userId } = await createTestSession(gw.rt.db, "someone@trusted.test");
    expect(await open(userId)).toBe(false);
    expect(await open(userId, { mode: "auto" })).toBe(true);
    expect(await open(userId, { mode: "domains", domains: ["trusted.test"] })).toBe(true);
    expect(await open(userId, { mode: "domains", domains: ["other.test"] })).toBe(false);
    expect(await open("no-such-user")).toBe(false);
  });

  it("is open for an operator's own console, whose address the portal names an operator's", async () => {
    const { userId } = await createTestSession(gw.rt.db, "Ops@Example.test");
    expect(await open(userId)).toBe(false);
    expect(await consoleModelsOpen(gw.rt.db, userId, manual, new Set(["ops@example.test"]))).toBe(true);
  });

  it("opens with an approved request still to be picked up, not a pending, declined or expired one", async () => {
    const { userId } = await createTestSession(gw.rt.db);
    const pending = await requestKey(gw.rt.db, userId, request, manual);
    expect(await open(userId)).toBe(false);
    await decideKeyRequest(gw.rt.db, pending.id, { approve: false }, "ops");
    expect(await open(userId)).toBe(false);
    const lapsing = await requestKey(
      gw.rt.db,
      userId,
      { ...request, name: "k2", expiresAt: new Date(Date.now() + 60_000) },
      manual,
    );
    await decideKeyRequest(gw.rt.db, lapsing.id, { approve: true }, "ops");
    expect(await open(userId)).toBe(true);
    expect(await consoleModelsOpen(gw.rt.db, userId, manual, new Set(), new Date(Date.now() + 120_000))).toBe(false);
  });

  it("opens with a working client key, not an expired one, and with an operator's grant", async () => {
    const s = await createTestSession(gw.rt.db);
    await createKey(gw.rt.db, { name: "old", email: s.email, expiresAt: new Date(Date.now() - 1000) }, "ops");
    expect(await open(s.userId)).toBe(false);
    await createKey(gw.rt.db, { name: "new", email: s.email }, "ops");
    expect(await open(s.userId)).toBe(true);

    const other = await createTestSession(gw.rt.db);
    await consoleKeyFor(gw.rt.db, other.userId);
    expect(await open(other.userId)).toBe(false);
    await grantConsoleModels(gw.rt.db, other.email, [], "ops");
    expect(await open(other.userId)).toBe(true);
    expect((await consoleKeyFor(gw.rt.db, other.userId)).scopes).toEqual([...SCOPE_AREAS].sort());
  });
});
