import { describe, expect, it } from "vitest";
import type { ApiKey } from "../../db/generated/client.ts";
import { keySummary } from "./key-list.ts";

const row: ApiKey = {
  id: "key_b",
  userId: "user_1",
  name: "laptop",
  prefix: "sk_abcd",
  hash: "secret-hash",
  scopes: ["llm"],
  grantedScopes: ["data", "llm"],
  dayLimit: 500,
  minuteLimit: null,
  concurrencyLimit: 2,
  tokenMinuteLimit: null,
  tokenDayLimit: 50_000,
  cacheMaxAge: null,
  guardrails: null,
  cacheSemantic: false,
  cacheScope: "key",
  teamId: "team_1",
  modelAllow: [],
  modelDeny: ["openai/*"],
  status: "active",
  kind: "client",
  expiresAt: new Date("2026-06-01T00:00:00Z"),
  lineageId: "key_a",
  replacedBy: null,
  lastUsedAt: null,
  createdAt: new Date("2026-03-15T12:00:00Z"),
  updatedAt: new Date("2026-03-15T12:00:00Z"),
};

describe("keySummary", () => {
  it("shows a key as the portal lists it, without its hash", () => {
    const summary = keySummary({ ...row, user: { email: "ada@example.test" } });
    expect(summary).toEqual({
      id: "key_b",
      name: "laptop",
      kind: "client",
      prefix: "sk_abcd",
      email: "ada@example.test",
      status: "active",
      scopes: ["llm"],
      granted_scopes: ["data", "llm"],
      limits: { day: 500, minute: null, concurrency: 2 },
      token_limits: { minute: null, day: 50_000 },
      team_id: "team_1",
      cache: { max_age: null, semantic: false, scope: "key" },
      models: { allow: [], deny: ["openai/*"] },
      guardrails: null,
      lineage_id: "key_a",
      replaced_by: null,
      created_at: "2026-03-15T12:00:00.000Z",
      last_used_at: null,
      expires_at: "2026-06-01T00:00:00.000Z",
    });
    expect(JSON.stringify(summary)).not.toContain("secret-hash");
  });

  it("gives an ownerless key no email, and a key from before lineages its own id as lineage", () => {
    expect(keySummary({ ...row, lineageId: null, user: null })).toMatchObject({ email: null, lineage_id: "key_b" });
  });
});
