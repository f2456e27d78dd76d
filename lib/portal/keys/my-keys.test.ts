import { describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { useDatabase } from "../../../test/support/use-database.ts";
import { grantedAreasOf, keyRequestsOf } from "./my-keys.ts";

describe.each(databaseBackends)("a user's own keys and requests (%s)", (backend) => {
  const t = useDatabase(backend);

  it("lists only the user's requests, newest first", async () => {
    const { userId } = await createTestSession(t.db);
    const other = await createTestSession(t.db);
    const request = (id: string, owner: string, at: string) =>
      t.db.prisma.keyRequest.create({
        data: {
          id,
          userId: owner,
          name: id,
          intendedUse: "Trying it out",
          useType: "personal",
          createdAt: new Date(at),
        },
      });
    await request("kr_old", userId, "2026-03-01T00:00:00Z");
    await request("kr_new", userId, "2026-03-02T00:00:00Z");
    await request("kr_theirs", other.userId, "2026-03-03T00:00:00Z");
    expect((await keyRequestsOf(t.db, userId)).map((r) => r.id)).toEqual(["kr_new", "kr_old"]);
  });

  it("reads a key's granted areas for its owner only, leaving operator scopes out", async () => {
    const { userId } = await createTestSession(t.db);
    const other = await createTestSession(t.db);
    await t.db.prisma.apiKey.create({
      data: {
        id: "key_granted",
        name: "granted",
        prefix: "sk_granted",
        hash: "granted",
        userId,
        lineageId: "key_granted",
        scopes: ["llm", "ollama:admin"],
        grantedScopes: ["data", "llm", "ollama:admin"],
      },
    });
    expect(await grantedAreasOf(t.db, "key_granted", userId)).toEqual(["data", "llm"]);
    expect(await grantedAreasOf(t.db, "key_granted", other.userId)).toBeNull();
    expect(await grantedAreasOf(t.db, "key_unknown", userId)).toBeNull();
  });
});
