import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBackends } from "../../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { createTestSession } from "../../../test/support/session.ts";
import { z } from "zod";
import { consoleKeyFor } from "./console-key.ts";
import { createKey, renameKey, revokeKey } from "./key-changes.ts";
import { pickUpKey, requestKey } from "./key-requests.ts";
import { rotateKey } from "./key-rotation.ts";
import { KeyRuleError } from "./key-rules.ts";
import { isKeyNameTaken } from "./names.ts";
import { operatorApp } from "./operator.ts";

const REQUEST = { name: "Thesis", intendedUse: "Collecting papers for my thesis", useType: "research" as const };

describe.each(databaseBackends)("the rules every key change keeps (%s)", (db) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ db });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const user = async () => (await createTestSession(gw.rt.db)).userId;

  it("caps the active client keys a user holds, whether the operator or an approved request creates them", async () => {
    const rules = { maxKeysPerUser: 2 };
    const email = `cap-${Date.now()}@example.test`;
    const first = await createKey(gw.rt.db, { name: "one", email }, "operator", rules);
    const second = await createKey(gw.rt.db, { name: "two", email }, "operator", rules);
    await expect(createKey(gw.rt.db, { name: "three", email }, "operator", rules)).rejects.toThrow(
      /already has 2 active keys/,
    );
    const userId = first.record.userId!;
    // Console keys do not count. A key in its rotation grace period still works, so it counts: at the cap
    // a rotation must end the old key at once.
    await consoleKeyFor(gw.rt.db, userId);
    await expect(rotateKey(gw.rt.db, first.id, { graceHours: 24 }, "me", userId, rules)).rejects.toThrow(
      /already has 2 active keys.*grace period included\); revoke one first, or rotate with no grace period/,
    );
    const rotated = (await rotateKey(gw.rt.db, first.id, { graceHours: 0 }, "me", userId, rules))!;
    const request = await requestKey(gw.rt.db, userId, REQUEST, { mode: "auto" });
    await expect(pickUpKey(gw.rt.db, request.id, userId, rules)).rejects.toThrow(KeyRuleError);
    // Refused, the request is still there to collect once a key is revoked.
    expect((await gw.rt.db.prisma.keyRequest.findUniqueOrThrow({ where: { id: request.id } })).keyId).toBeNull();
    await revokeKey(gw.rt.db, second.id, "me", userId);
    // The room freed is taken by a rotation with a grace period: its old key and the replacement both work.
    const again = (await rotateKey(gw.rt.db, rotated.id, { graceHours: 24 }, "me", userId, rules))!;
    await expect(pickUpKey(gw.rt.db, request.id, userId, rules)).rejects.toThrow(/already has 2 active keys/);
    await revokeKey(gw.rt.db, again.old.id, "me", userId);
    expect(await pickUpKey(gw.rt.db, request.id, userId, rules)).not.toBeNull();
  });

  it("applies MAX_KEYS_PER_USER on the operator endpoint, with a 409 that says why", async () => {
    const capped = await startTestGateway({ db, env: { MAX_KEYS_PER_USER: "1" } });
    try {
      const operator = operatorApp(capped.rt, "t0ken");
      const create = (name: string) =>
        operator.request("/keys", {
          method: "POST",
          headers: { authorization: "Bearer t0ken", "content-type": "application/json" },
          body: JSON.stringify({ name, email: "capped@example.test" }),
        });
      expect((await create("first")).status).toBe(201);
      const refused = await create("second");
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        error: expect.stringMatching(/already has 1 active keys, the most allowed \(1, keys in a rotation grace/),
      });
    } finally {
      await capped.close();
    }
  });

  it("refuses names, uses and notes the database cannot store as validation errors, not database failures", async () => {
    const userId = await user();
    const refused = async (work: Promise<unknown>) => {
      const err = await work.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(z.ZodError);
      expect((err as z.ZodError).issues[0]?.message).toMatch(/NUL characters or unpaired surrogates/);
    };
    await refused(requestKey(gw.rt.db, userId, { ...REQUEST, name: "Thesis\u0000" }, { mode: "manual" }));
    await refused(
      requestKey(
        gw.rt.db,
        userId,
        { ...REQUEST, intendedUse: "Collecting papers \ud800 for my thesis" },
        { mode: "manual" },
      ),
    );
    await refused(createKey(gw.rt.db, { name: "laptop\u0000" }, "operator-cli"));
    const { id } = await gw.key();
    await refused(renameKey(gw.rt.db, id, { name: "x\udc00" }, "test"));
  });

  it("keeps key names unique per owner, case-insensitively, across keys and open requests, saying what has the name", async () => {
    const { userId, email } = await createTestSession(gw.rt.db);
    const auto = { mode: "auto" } as const;
    const laptop = (await pickUpKey(
      gw.rt.db,
      (await requestKey(gw.rt.db, userId, { ...REQUEST, name: "Laptop" }, auto)).id,
      userId,
    ))!;
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: " laptop " }, auto)).rejects.toThrow(
      `“laptop” is taken: this account already has a key of that name (${laptop.prefix}…). Choose another name.`,
    );
    await requestKey(gw.rt.db, userId, REQUEST, { mode: "manual" });
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: "THESIS" }, auto)).rejects.toThrow(
      /asked for a key of that name, waiting for approval/,
    );
    await expect(renameKey(gw.rt.db, laptop.id, { name: "thesis" }, "me", userId)).rejects.toThrow(KeyRuleError);
    // Its own name in other letters is not a clash, and another owner's names are theirs.
    expect((await renameKey(gw.rt.db, laptop.id, { name: "LAPTOP" }, "me", userId))?.name).toBe("LAPTOP");
    const other = await createTestSession(gw.rt.db);
    expect((await requestKey(gw.rt.db, other.userId, { ...REQUEST, name: "laptop" }, auto)).status).toBe("approved");
    // The operator CLI is held to the same rule (its 409 carries the message).
    await expect(createKey(gw.rt.db, { name: "Laptop", email }, "operator-cli")).rejects.toThrow(/is taken/);

    // A rotation's replacement takes the name over from the key it replaces.
    const rotated = (await rotateKey(gw.rt.db, laptop.id, { graceHours: 24 }, "me", userId))!;
    expect(rotated.record.name).toBe("LAPTOP");
    // Revoking frees a name; an expired key keeps it until revoked, and the message says so.
    await revokeKey(gw.rt.db, rotated.id, "me", userId);
    const reused = await createKey(gw.rt.db, { name: "laptop", email }, "operator-cli");
    await gw.rt.db.prisma.apiKey.update({ where: { id: reused.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(requestKey(gw.rt.db, userId, { ...REQUEST, name: "Laptop" }, auto)).rejects.toThrow(
      `“Laptop” is taken: it is the name of this account's expired key ${reused.prefix}…, which keeps it until it is revoked (under “Revoked and expired”). Choose another name.`,
    );

    // The database holds the rule too: a write that skipped the check is refused by the index, which
    // the key functions turn back into the rule's error.
    const raced = await gw.rt.db.prisma.apiKey
      .create({
        data: { id: "key_raced", name: "LAPTOP", prefix: "sk_raced", hash: "raced", userId, lineageId: "key_raced" },
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(isKeyNameTaken(raced)).toBe(true);
    expect(isKeyNameTaken(new Error("P2002"))).toBe(false);
  });
});
