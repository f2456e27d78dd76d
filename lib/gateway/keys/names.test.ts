import { describe, expect, it } from "vitest";
import { backendEnv, databaseBackends } from "../../../test/support/backends.ts";
import { loadConfig } from "../../config.ts";
import { openDatabase } from "../../db/client.ts";
import { applyMigrations, readMigrations } from "../../db/migrate.ts";
import { nameClash, sameKeyName, type NameHolder } from "./names.ts";

describe("key names", () => {
  it("compare trimmed and case-insensitively", () => {
    expect(sameKeyName(" Laptop", "laptop ")).toBe(true);
    expect(sameKeyName("Ünïcode", "üNÏCODE")).toBe(true);
    expect(sameKeyName("laptop", "laptop 2")).toBe(false);
  });

  it("clash with a working key, an expired one, a pending request or an approved one, each said plainly", () => {
    const holders: NameHolder[] = [
      { what: "key", name: "Laptop", prefix: "sk_abcd1234", expired: false },
      { what: "key", name: "trial", prefix: "sk_eeee5555", expired: true },
      { what: "request", name: "Thesis", approved: false },
      { what: "request", name: "server", approved: true },
    ];
    expect(nameClash("new one", holders)).toBeNull();
    expect(nameClash(" laptop ", holders)).toBe(
      "“laptop” is taken: this account already has a key of that name (sk_abcd1234…). Choose another name.",
    );
    expect(nameClash("TRIAL", holders)).toBe(
      "“TRIAL” is taken: it is the name of this account's expired key sk_eeee5555…, which keeps it until it is revoked (under “Revoked and expired”). Choose another name.",
    );
    expect(nameClash("thesis", holders)).toMatch(
      /asked for a key of that name, waiting for approval\. Choose another name\.$/,
    );
    expect(nameClash("Server", holders, "Rename that key first.")).toBe(
      "“Server” is taken: a key of that name was approved for this account and waits on the keys page. Rename that key first.",
    );
  });
});

describe.each(databaseBackends)("migration 0009_key_names (%s)", (backend) => {
  it("renames existing duplicates deterministically before making names unique, and logs each rename", async () => {
    const env = await backendEnv(backend, "memory", { empty: true });
    const db = await openDatabase(loadConfig(env.env));
    try {
      const migrations = readMigrations();
      const at = migrations.findIndex((m) => m.name === "0009_key_names");
      expect(at).toBeGreaterThan(0);
      await applyMigrations(db, migrations.slice(0, at));
      const long = "x".repeat(100);
      await db.withSession(async (s) => {
        await s.exec(`INSERT INTO users (id, email) VALUES ('u1', 'one@example.test'), ('u2', 'two@example.test')`);
        // [id, user, name, status, replaced_by, kind, minutes after the first]
        const keys: [string, string | null, string, string, string | null, string, number][] = [
          ["k1", "u1", "Laptop", "active", null, "client", 0],
          ["k2", "u1", "laptop", "active", null, "client", 1],
          // Already unique: kept, and the suffixes given to the duplicates of "laptop" go round it.
          ["k3", "u1", "Laptop (2)", "active", null, "client", 2],
          ["k4", "u1", "LAPTOP", "active", null, "client", 3],
          // Revoked and rotated-away keys hold no name, and keys without an owner are not compared.
          ["k5", "u1", "laptop", "revoked", null, "client", 4],
          ["k6", "u1", "laptop", "active", "k1", "client", 5],
          ["k7", null, "laptop", "active", null, "client", 6],
          ["k8", null, "laptop", "active", null, "client", 7],
          // Another user's names are theirs.
          ["k9", "u2", "laptop", "active", null, "client", 8],
          ["k10", "u1", long, "active", null, "client", 9],
          ["k11", "u1", long, "active", null, "client", 10],
          ["k12", "u1", "Portal consoles", "active", null, "console", 11],
        ];
        for (const [id, user, name, status, replacedBy, kind, minutes] of keys)
          await s.query(
            `INSERT INTO api_keys (id, user_id, name, prefix, hash, status, replaced_by, kind, lineage_id, created_at)
             VALUES ($1, $2, $3, $1, $1, $4, $5, $6, $1, TIMESTAMP '2026-01-01 00:00:00' + make_interval(mins => $7))`,
            [id, user, name, status, replacedBy, kind, minutes],
          );
        // Open requests come after keys; a decided or picked-up request keeps its name.
        const requests: [string, string, string, string | null, number][] = [
          ["r1", "laptop", "pending", null, 0],
          ["r2", "Thesis", "approved", null, 1],
          ["r3", "thesis", "pending", null, 2],
          ["r4", "laptop", "approved", "k1", 3],
          ["r5", "laptop", "declined", null, 4],
        ];
        for (const [id, name, status, keyId, minutes] of requests)
          await s.query(
            `INSERT INTO key_requests (id, user_id, name, intended_use, use_type, status, key_id, created_at)
             VALUES ($1, 'u1', $2, 'testing the migration', 'personal', $3, $4, TIMESTAMP '2026-01-01 00:00:00' + make_interval(mins => $5))`,
            [id, name, status, keyId, minutes],
          );
      });
      expect(await applyMigrations(db, migrations.slice(0, at + 1))).toEqual(["0009_key_names"]);

      const keyNames = Object.fromEntries(
        (await db.prisma.apiKey.findMany({ select: { id: true, name: true } })).map((k) => [k.id, k.name]),
      );
      expect(keyNames).toEqual({
        k1: "Laptop",
        k2: "laptop (3)",
        k3: "Laptop (2)",
        k4: "LAPTOP (4)",
        k5: "laptop",
        k6: "laptop",
        k7: "laptop",
        k8: "laptop",
        k9: "laptop",
        k10: long,
        k11: `${"x".repeat(96)} (2)`,
        k12: "Portal consoles",
      });
      const requestNames = Object.fromEntries(
        (await db.prisma.keyRequest.findMany({ select: { id: true, name: true } })).map((r) => [r.id, r.name]),
      );
      expect(requestNames).toEqual({ r1: "laptop (5)", r2: "Thesis", r3: "thesis (2)", r4: "laptop", r5: "laptop" });

      const audit = await db.prisma.auditLog.findMany({ orderBy: { id: "asc" } });
      expect(audit.map((a) => [a.actor, a.action, a.target, a.detail])).toEqual([
        ["migration:0009_key_names", "key.rename", "k2", { from: "laptop", to: "laptop (3)" }],
        ["migration:0009_key_names", "key.rename", "k4", { from: "LAPTOP", to: "LAPTOP (4)" }],
        ["migration:0009_key_names", "key.rename", "k11", { from: long, to: `${"x".repeat(96)} (2)` }],
        ["migration:0009_key_names", "key_request.rename", "r1", { from: "laptop", to: "laptop (5)" }],
        ["migration:0009_key_names", "key_request.rename", "r3", { from: "thesis", to: "thesis (2)" }],
      ]);

      // From now on the database refuses a second working key of one name for one owner.
      await expect(
        db.withSession((s) =>
          s.exec(
            `INSERT INTO api_keys (id, user_id, name, prefix, hash, lineage_id) VALUES ('k13', 'u1', 'LAPTOP', 'p', 'h13', 'k13')`,
          ),
        ),
      ).rejects.toThrow(/api_keys_user_name_key/);
    } finally {
      await db.close();
      await env.cleanup();
    }
  }, 120_000);
});
