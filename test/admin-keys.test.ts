import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runTeamCommand, type TeamCommand } from "../lib/gateway/teams/team-commands.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

type AdminKey = {
  id: string;
  key?: string;
  name: string;
  team_id: string | null;
  email: string | null;
  status: string;
  scopes: string[];
  limits: { day: number | null; minute: number | null; concurrency: number | null };
  token_limits: { minute: number | null; day: number | null };
  expires_at: string | null;
};

/**
 * Keys managed over /v1/admin/keys: an operator's key with keys:admin manages every key, a team admin's
 * only its team's, and no key can make or change a key to have more rights than its own.
 */
describe("keys by API", () => {
  let gw: TestGateway;
  let teamA: string;
  let teamB: string;
  let ops: { id: string; key: string };
  let alice: { id: string; key: string };
  let bobTeamKey: string;

  // As the operator endpoint does after a team command: this instance applies it at once.
  const team = async (command: TeamCommand, input: object) => {
    const { lines } = await runTeamCommand(gw.rt.db, command, input, "test");
    await gw.rt.levels.refresh();
    return lines[0] as { id: string };
  };
  const call = (key: string, method: string, path: string, body?: object) =>
    gw.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body && { "content-type": "application/json" }) },
      ...(body && { body: JSON.stringify(body) }),
    });
  const json = async <T>(r: Response) => (await r.json()) as T;

  beforeAll(async () => {
    gw = await startTestGateway();
    const org = await team("create-org", { name: "Admin Org" });
    teamA = (await team("create-team", { organisation: org.id, name: "Alpha" })).id;
    teamB = (await team("create-team", { organisation: org.id, name: "Beta" })).id;
    await team("add-member", { team: teamA, email: "alice@example.test", role: "admin" });
    await team("add-member", { team: teamA, email: "mel@example.test", role: "member" });
    await team("add-member", { team: teamA, email: "vic@example.test", role: "viewer" });
    await team("add-member", { team: teamB, email: "bob@example.test", role: "owner" });
    ops = await gw.key({ name: "operator", scopes: ["keys:admin"] });
    alice = await gw.key({
      name: "alice admin",
      email: "alice@example.test",
      team: teamA,
      scopes: ["llm", "data", "keys:admin"],
      minute: 50,
      tokensDay: 10_000,
    });
    bobTeamKey = (await gw.key({ name: "beta service", team: teamB })).id;
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("lets an operator's key create, list, change, rotate and revoke keys, each change audited", async () => {
    const made = await call(ops.key, "POST", "/v1/admin/keys", {
      name: "mel laptop",
      email: "mel@example.test",
      team: teamA,
      scopes: ["llm"],
      limits: { minute: 20, tokens_minute: 1000, tokens_day: 5000 },
    });
    expect(made.status).toBe(201);
    const created = await json<AdminKey>(made);
    expect(created).toMatchObject({
      name: "mel laptop",
      email: "mel@example.test",
      team_id: teamA,
      scopes: ["llm"],
      limits: { minute: 20 },
      token_limits: { minute: 1000, day: 5000 },
    });
    expect(created.key).toMatch(/^sk_/);
    // The new key works, with its terms.
    const own = await json<{ limits: { minute: number }; team: { id: string } }>(
      await call(created.key!, "GET", "/v1/key"),
    );
    expect(own).toMatchObject({ limits: { minute: 20 }, team: { id: teamA } });

    const listed = await json<{ keys: AdminKey[] }>(await call(ops.key, "GET", `/v1/admin/keys?team=${teamA}`));
    expect(listed.keys.map((k) => k.name)).toEqual(["alice admin", "mel laptop"]);
    // Never a secret or a hash: the display prefix only.
    expect(JSON.stringify(listed)).not.toContain(created.key!);
    expect(JSON.stringify(listed)).not.toMatch(/"hash"/);

    const changed = await call(ops.key, "PATCH", `/v1/admin/keys/${created.id}`, {
      name: "mel desktop",
      limits: { minute: 30, tokens_minute: null, tokens_day: 4000 },
    });
    expect(changed.status).toBe(200);
    expect(await json<AdminKey>(changed)).toMatchObject({
      name: "mel desktop",
      limits: { minute: 30 },
      token_limits: { minute: null, day: 4000 },
    });
    // Applied at once: the key's own view shows the new minute limit.
    expect((await json<{ limits: { minute: number } }>(await call(created.key!, "GET", "/v1/key"))).limits.minute).toBe(
      30,
    );

    const rotated = await call(ops.key, "POST", `/v1/admin/keys/${created.id}/rotate`, { grace_hours: 0 });
    expect(rotated.status).toBe(201);
    const replacement = await json<AdminKey>(rotated);
    // The replacement keeps every term: team, limits, token limits.
    expect(replacement).toMatchObject({
      name: "mel desktop",
      team_id: teamA,
      limits: { minute: 30 },
      token_limits: { minute: null, day: 4000 },
    });
    expect((await call(replacement.key!, "GET", "/v1/key")).status).toBe(200);
    expect((await call(created.key!, "GET", "/v1/key")).status).toBe(401);

    const revoked = await call(ops.key, "DELETE", `/v1/admin/keys/${replacement.id}`);
    expect(await json<AdminKey>(revoked)).toMatchObject({ status: "revoked" });
    expect((await call(replacement.key!, "GET", "/v1/key")).status).toBe(401);

    const audit = await gw.rt.db.prisma.auditLog.findMany({ where: { actor: `key:${ops.id}` } });
    expect(audit.map((a) => a.action).sort()).toEqual(["key.create", "key.revoke", "key.rotate", "key.update"]);
  });

  it("lets a team admin's key make its team's keys within its own rights, and refuses more, naming it", async () => {
    const made = await call(alice.key, "POST", "/v1/admin/keys", { name: "alpha ci" });
    expect(made.status).toBe(201);
    const ci = await json<AdminKey>(made);
    // The team's own key, with the caller's areas (not its keys:admin) and no more than its limits.
    expect(ci).toMatchObject({ team_id: teamA, email: null, scopes: ["data", "llm"], token_limits: { day: 10_000 } });
    expect(ci.limits.minute ?? gw.rt.config.limits.minute).toBeLessThanOrEqual(50);

    const beyond = async (body: object) => {
      const r = await call(alice.key, "POST", "/v1/admin/keys", { name: "too much", ...body });
      expect(r.status).toBe(403);
      return (await json<{ error: string }>(r)).error;
    };
    expect(await beyond({ scopes: ["llm", "proxy"] })).toMatch(/more rights than its own: .*the area proxy/);
    expect(await beyond({ scopes: [] })).toMatch(/every area/);
    expect(await beyond({ limits: { minute: 51 } })).toMatch(/a minute limit of 51 \(this key's is 50\)/);
    expect(await beyond({ limits: { tokens_day: 20_000 } })).toMatch(/20000 tokens a day/);
    expect(await beyond({ scopes: ["llm", "ollama:admin"] })).toMatch(/the scope ollama:admin/);
    // Changing a key is held to the same rule.
    const raised = await call(alice.key, "PATCH", `/v1/admin/keys/${ci.id}`, { limits: { minute: 500 } });
    expect(raised.status).toBe(403);

    // A member's personal key for the team, but never one that manages keys unless they are an admin.
    const mel = await call(alice.key, "POST", "/v1/admin/keys", { name: "mel ci", email: "mel@example.test" });
    expect(mel.status).toBe(201);
    const melAdmin = await call(alice.key, "POST", "/v1/admin/keys", {
      name: "mel admin",
      email: "mel@example.test",
      scopes: ["llm", "keys:admin"],
    });
    expect(melAdmin.status).toBe(409);
    expect((await json<{ error: string }>(melAdmin)).error).toMatch(/only an owner or admin of Alpha/);
    // A viewer holds no keys for the team.
    const viewer = await call(alice.key, "POST", "/v1/admin/keys", { name: "vic", email: "vic@example.test" });
    expect(viewer.status).toBe(409);
    expect((await json<{ error: string }>(viewer)).error).toMatch(/a viewer of Alpha holds no keys/);
  });

  it("shows a team admin nothing of another team, and no key to one with more rights than its own", async () => {
    const listed = await json<{ keys: AdminKey[] }>(await call(alice.key, "GET", "/v1/admin/keys?team=" + teamB));
    expect(listed.keys.length).toBeGreaterThan(0);
    expect(listed.keys.every((k) => k.team_id === teamA)).toBe(true);
    for (const [method, path] of [
      ["GET", `/v1/admin/keys/${bobTeamKey}`],
      ["PATCH", `/v1/admin/keys/${bobTeamKey}`],
      ["DELETE", `/v1/admin/keys/${bobTeamKey}`],
      ["POST", `/v1/admin/keys/${bobTeamKey}/rotate`],
    ] as const) {
      const r = await call(alice.key, method, path, method === "PATCH" || method === "POST" ? {} : undefined);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await call(alice.key, "POST", "/v1/admin/keys", { name: "x", team: teamB })).status).toBe(404);
    // Bob's team key is untouched.
    expect((await gw.rt.db.prisma.apiKey.findUnique({ where: { id: bobTeamKey } }))?.status).toBe("active");

    // A team key the operator made with every area: rotating it would hand alice a secret with more rights.
    const wide = await json<AdminKey>(
      await call(ops.key, "POST", "/v1/admin/keys", { name: "alpha wide", team: teamA, scopes: [] }),
    );
    const rotate = await call(alice.key, "POST", `/v1/admin/keys/${wide.id}/rotate`, {});
    expect(rotate.status).toBe(403);
    // Revoking takes rights away: allowed.
    expect((await call(alice.key, "DELETE", `/v1/admin/keys/${wide.id}`)).status).toBe(200);
  });

  it("refuses a key without keys:admin, and one whose owner stopped being an admin, at once", async () => {
    const plain = await gw.key({ name: "plain" });
    const refused = await call(plain.key, "GET", "/v1/admin/keys");
    expect(refused.status).toBe(403);
    expect((await json<{ error: string }>(refused)).error).toMatch(/needs the keys:admin scope/);

    const carol = await (async () => {
      await team("add-member", { team: teamA, email: "carol@example.test", role: "admin" });
      return gw.key({ name: "carol admin", email: "carol@example.test", team: teamA, scopes: ["llm", "keys:admin"] });
    })();
    expect((await call(carol.key, "GET", "/v1/admin/keys")).status).toBe(200);
    await team("add-member", { team: teamA, email: "carol@example.test", role: "member" });
    const demoted = await call(carol.key, "GET", "/v1/admin/keys");
    expect(demoted.status).toBe(403);
    expect((await json<{ error: string }>(demoted)).error).toMatch(/no longer an owner or admin/);
  });

  it("reports usage by team, member, key and model for what the caller manages, the parts adding up", async () => {
    const mel = await call(alice.key, "POST", "/v1/admin/keys", { name: "mel usage", email: "mel@example.test" });
    const melKey = (await json<AdminKey>(mel)).key!;
    for (let i = 0; i < 3; i++) expect((await call(melKey, "GET", "/v1/key")).status).toBe(200);
    const bobKey = (await gw.key({ name: "bob usage", team: teamB })).key;
    expect((await call(bobKey, "GET", "/v1/key")).status).toBe(200);
    await gw.rt.meter.flush();

    type Usage = {
      scope: { level: string; id: string | null };
      totals: { requests: number };
      teams: { team_id: string | null; name: string | null; requests: number }[];
      members: { email: string | null; requests: number }[];
      keys: { id: string; requests: number }[];
    };
    const sum = (rows: { requests: number }[]) => rows.reduce((a, r) => a + r.requests, 0);
    const mine = await json<Usage>(await call(alice.key, "GET", "/v1/admin/usage"));
    expect(mine.scope).toEqual({ level: "team", id: teamA });
    expect(mine.teams.map((t) => [t.team_id, t.name])).toEqual([[teamA, "Alpha"]]);
    expect(mine.members.find((m) => m.email === "mel@example.test")?.requests).toBeGreaterThanOrEqual(3);
    for (const part of [mine.teams, mine.members, mine.keys]) expect(sum(part)).toBe(mine.totals.requests);

    const org = (await gw.rt.db.prisma.team.findUniqueOrThrow({ where: { id: teamA } })).organisationId;
    const whole = await json<Usage>(await call(ops.key, "GET", `/v1/admin/usage?organisation=${org}`));
    expect(whole.scope).toEqual({ level: "organisation", id: org });
    expect(whole.teams.map((t) => t.team_id).sort()).toEqual([teamA, teamB].sort());
    expect(sum(whole.teams)).toBe(whole.totals.requests);
    // A team admin reads nothing above or beside its team.
    expect((await call(alice.key, "GET", `/v1/admin/usage?organisation=${org}`)).status).toBe(404);
    expect((await call(alice.key, "GET", `/v1/admin/usage?team=${teamB}`)).status).toBe(404);
  });

  it("documents every route in /openapi.json", async () => {
    const spec = await json<{ paths: Record<string, Record<string, unknown>> }>(await gw.request("/openapi.json"));
    expect(Object.keys(spec.paths["/v1/admin/keys"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(spec.paths["/v1/admin/keys/{id}"]!).sort()).toEqual(["delete", "get", "patch"]);
    expect(Object.keys(spec.paths["/v1/admin/keys/{id}/rotate"]!)).toEqual(["post"]);
    expect(Object.keys(spec.paths["/v1/admin/usage"]!)).toEqual(["get"]);
  });
});
