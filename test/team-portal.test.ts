import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOperatorEndpoint } from "../lib/gateway/keys/operator.ts";
import { backendEnv } from "./support/backends.ts";
import { CookieJar } from "./support/cookie-jar.ts";
import { startTestSmtp, type TestSmtp } from "./support/mail.ts";
import { startServerProcess, type ServerProcess } from "./support/server-process.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml";

/**
 * The portal's team actions over HTTP, as the team page's forms send them, against `npm start`'s server:
 * every action checked against every role that may not take it, invitations accepted only by their
 * address, and another team's people kept out.
 */
describe("teams in the portal: roles, invitations, keys and leaving, over HTTP", () => {
  let server: ServerProcess;
  let smtp: TestSmtp;
  let cleanup: () => Promise<void>;
  let dataDir: string;
  const ids: Record<"a" | "b", string> = { a: "", b: "" };
  const people = {
    owner: "owner@team-a.test",
    admin: "admin@team-a.test",
    member: "member@team-a.test",
    other: "other@team-a.test",
    viewer: "viewer@team-a.test",
    ownerB: "owner@team-b.test",
  };
  const jars = new Map<string, CookieJar>();

  async function operator(command: string, body: object): Promise<{ id: string }> {
    const endpoint = readOperatorEndpoint(dataDir)!;
    const res = await fetch(`${endpoint.url}/teams/${command}`, {
      method: "POST",
      headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { lines: { id: string }[] }).lines[0]!;
  }

  /** Signs an address in through the mailed link, as a browser would, and keeps its cookies. */
  async function signIn(email: string): Promise<CookieJar> {
    const known = jars.get(email);
    if (known) return known;
    const jar = new CookieJar();
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    jar.take(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const since = smtp.mails.length;
    const asked = await fetch(`${server.url}/api/auth/signin/email`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, callbackUrl: server.url }),
    });
    expect(asked.status).toBe(302);
    const mail = await smtp.waitFor(email, /\/api\/auth\/callback\/email\?/, { since });
    const link = /https?:\/\/\S+\/api\/auth\/callback\/email\?\S+/.exec(mail.text)![0];
    jar.take(await fetch(link, { redirect: "manual", headers: { cookie: jar.header() } }));
    jars.set(email, jar);
    return jar;
  }

  /** A team action as the signed-in address, from the portal's own page. */
  async function act(email: string, team: string, action: string, body: object = {}) {
    const jar = await signIn(email);
    const res = await fetch(`${server.url}/api/portal/teams/${team}/${action}`, {
      method: "POST",
      headers: { cookie: jar.header(), origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  async function view(email: string, team: string) {
    const jar = await signIn(email);
    const res = await fetch(`${server.url}/api/portal/teams/${team}`, { headers: { cookie: jar.header() } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const keyWorks = async (key: string) =>
    (await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": key } })).status;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    const b = await backendEnv("pglite");
    cleanup = b.cleanup;
    dataDir = b.env.DATA_DIR!;
    server = await startServerProcess({
      ...b.env,
      SMTP_URL: smtp.url,
      EMAIL_FROM: "Gateway <gateway@example.test>",
      ADMIN_EMAILS: "ops@operator.test",
      METER_FLUSH_MS: "200",
    });
    const org = await operator("create-org", { name: "Acme" });
    ids.a = (await operator("create-team", { organisation: org.id, name: "Alpha" })).id;
    ids.b = (await operator("create-team", { organisation: org.id, name: "Beta" })).id;
    for (const [who, role] of [
      ["owner", "owner"],
      ["admin", "admin"],
      ["member", "member"],
      ["other", "member"],
      ["viewer", "viewer"],
    ] as const)
      await operator("add-member", { team: ids.a, email: people[who], role });
    await operator("add-member", { team: ids.b, email: people.ownerB, role: "owner" });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await cleanup?.();
  });

  it("invites by mail: only the invited address accepts, once, and joins with the role it was given", async () => {
    const since = smtp.mails.length;
    const invited = await act(people.admin, ids.a, "invite", { email: "New@Team-A.test", role: "member" });
    expect(invited).toMatchObject({ status: 200, body: { email: "new@team-a.test", role: "member", mailed: true } });
    const mail = await smtp.waitFor("new@team-a.test", /invites you to the team Alpha as a member/, { since });
    const link = /https?:\/\/\S+\/teams\/join\/\S+/.exec(mail.text)![0];
    const token = link.split("/").pop()!;

    // Someone else's session cannot use the link.
    const stranger = await signIn(people.member);
    const taken = await fetch(`${server.url}/api/portal/teams/join`, {
      method: "POST",
      headers: { cookie: stranger.header(), origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    expect(taken.status).toBe(403);
    expect(((await taken.json()) as { error: string }).error).toMatch(/for new@team-a\.test/);

    const jar = await signIn("new@team-a.test");
    const page = await fetch(link, { headers: { cookie: jar.header(), accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("You are invited to Alpha as a member.");
    const join = () =>
      fetch(`${server.url}/api/portal/teams/join`, {
        method: "POST",
        headers: { cookie: jar.header(), origin: server.url, "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
    expect((await join()).status).toBe(200);
    expect((await join()).status).toBe(404);
    const mine = (await (
      await fetch(`${server.url}/api/portal/teams`, { headers: { cookie: jar.header() } })
    ).json()) as { teams: { id: string; role: string }[] };
    expect(mine.teams).toEqual([expect.objectContaining({ id: ids.a, role: "member" })]);

    // Inviting a member again is refused; the invitations list is the admins' only.
    expect((await act(people.owner, ids.a, "invite", { email: "new@team-a.test" })).status).toBe(409);
    expect((await view(people.member, ids.a)).body.invitations).toEqual([]);
  });

  it("refuses each action to the roles that may not take it, and another team's admin sees nothing of this one", async () => {
    // A viewer holds no keys; a member invites no one, changes no role, removes no one, makes no team key.
    const viewerKey = await act(people.viewer, ids.a, "keys", { name: "viewer's" });
    expect(viewerKey.status).toBe(403);
    expect(viewerKey.body.error).toMatch(/viewer/);
    for (const [action, body] of [
      ["invite", { email: "x@team-a.test" }],
      ["role", { email: people.other, role: "viewer" }],
      ["remove", { email: people.other }],
      ["keys", { name: "shared by a member", shared: true }],
    ] as const) {
      const refused = await act(people.member, ids.a, action, body);
      expect(refused.status, action).toBe(403);
      expect(refused.body.error, action).toMatch(/owner or an admin/);
    }
    // An admin changes members' roles but not another admin's, and removes no admin or owner.
    expect((await act(people.admin, ids.a, "role", { email: people.other, role: "viewer" })).status).toBe(200);
    expect((await act(people.admin, ids.a, "role", { email: people.other, role: "member" })).status).toBe(200);
    expect((await act(people.admin, ids.a, "role", { email: people.admin, role: "owner" })).status).toBe(403);
    expect((await act(people.admin, ids.a, "remove", { email: people.owner })).status).toBe(409);

    // Team B's owner: team A is as if it did not exist, for reading and for every action.
    expect((await view(people.ownerB, ids.a)).status).toBe(404);
    for (const action of ["invite", "role", "remove", "keys", "leave"])
      expect(
        (await act(people.ownerB, ids.a, action, { email: people.member, name: "k", role: "viewer" })).status,
        action,
      ).toBe(404);

    // Not from the portal's own origin, or signed out: refused before anything is read.
    const jar = await signIn(people.owner);
    const foreign = await fetch(`${server.url}/api/portal/teams/${ids.a}/invite`, {
      method: "POST",
      headers: { cookie: jar.header(), origin: "https://elsewhere.test", "content-type": "application/json" },
      body: JSON.stringify({ email: "x@team-a.test" }),
    });
    expect(foreign.status).toBe(403);
    const anonymous = await fetch(`${server.url}/api/portal/teams/${ids.a}`);
    expect(anonymous.status).toBe(401);
    // Bad input is a 400 naming the field, never a 500.
    const bad = await act(people.owner, ids.a, "invite", { email: "not an address" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^email:/);
  });

  it("makes members' keys for the team; a member sees their own and the team's keys and never another member's request log", async () => {
    const mine = await act(people.member, ids.a, "keys", { name: "member laptop" });
    expect(mine.status).toBe(200);
    const theirs = await act(people.other, ids.a, "keys", { name: "other laptop" });
    const shared = await act(people.admin, ids.a, "keys", { name: "team ci", shared: true });
    expect(shared.status).toBe(200);
    const info = (await (
      await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": String(mine.body.key) } })
    ).json()) as { team: { name: string } };
    expect(info.team.name).toBe("Alpha");

    const names = (v: { body: Record<string, unknown> }) =>
      (v.body.keys as { name: string }[]).map((k) => k.name).sort();
    expect(names(await view(people.member, ids.a))).toEqual(["member laptop", "team ci"]);
    expect(names(await view(people.admin, ids.a))).toEqual(["member laptop", "other laptop", "team ci"]);

    // The other member's call is in their request log, and not in this member's.
    const call = await fetch(`${server.url}/v1/key`, { headers: { "X-API-Key": String(theirs.body.key) } });
    const requestId = call.headers.get("x-request-id")!;
    const logPage = async (email: string) =>
      (
        await fetch(`${server.url}/usage/requests/${requestId}`, {
          headers: { cookie: (await signIn(email)).header(), accept: BROWSER_ACCEPT },
        })
      ).status;
    await expect.poll(() => logPage(people.other), { timeout: 20_000, interval: 500 }).toBe(200);
    expect(await logPage(people.member)).toBe(404);
  });

  it("an organisation's verified domain: its addresses ask to join and an admin decides; with require-sso no email link is sent", async () => {
    const org = (await view(people.owner, ids.a)).body.team as { organisation: { id: string } };
    await operator("add-domain", { organisation: org.organisation.id, domain: "join.acme.test", joinTeam: "Alpha" });
    await operator("add-domain", { organisation: "Acme", domain: "sso.acme.test", requireSso: true });

    // An address at a domain that requires the organisation's provider gets no link, and is told why.
    const jar = new CookieJar();
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    jar.take(csrf);
    const since = smtp.mails.length;
    const refused = await fetch(`${server.url}/api/auth/signin/email`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        csrfToken: ((await csrf.json()) as { csrfToken: string }).csrfToken,
        email: "dev@sso.acme.test",
        callbackUrl: server.url,
      }),
    });
    expect(refused.status).toBe(302);
    const to = refused.headers.get("location")!;
    expect(to).toMatch(/\/sign-in\/error\?error=SsoRequired$/);
    const page = await fetch(new URL(to, server.url), { headers: { accept: BROWSER_ACCEPT } });
    expect(await page.text()).toContain("Your organisation requires its single sign-on");
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.mails.slice(since).filter((m) => m.to.includes("dev@sso.acme.test"))).toEqual([]);

    // An address at the join domain asks; a member cannot decide; an admin approves.
    const newbie = "newbie@join.acme.test";
    const teams = await signIn(newbie);
    const offer = await fetch(`${server.url}/teams`, { headers: { cookie: teams.header(), accept: BROWSER_ACCEPT } });
    expect(await offer.text()).toContain("Ask to join Alpha");
    expect((await act(people.ownerB, ids.a, "ask")).status).toBe(404);
    expect((await act(newbie, ids.b, "ask")).status).toBe(404);
    expect((await act(newbie, ids.a, "ask")).status).toBe(200);
    expect((await view(people.admin, ids.a)).body.joinRequests).toEqual([expect.objectContaining({ email: newbie })]);
    const byMember = await act(people.member, ids.a, "decide", { email: newbie, approve: true });
    expect(byMember.status).toBe(403);
    expect((await act(people.admin, ids.a, "decide", { email: newbie, approve: "true" })).status).toBe(200);
    const mine = (await (
      await fetch(`${server.url}/api/portal/teams`, { headers: { cookie: teams.header() } })
    ).json()) as { teams: { id: string; role: string }[] };
    expect(mine.teams).toEqual([expect.objectContaining({ id: ids.a, role: "member" })]);
    expect((await act(people.admin, ids.a, "decide", { email: newbie, approve: true })).status).toBe(404);
  });

  it("leaving and removal revoke the member's own keys for the team at once; the owner can do neither to themself", async () => {
    const leaverKey = String((await act(people.member, ids.a, "keys", { name: "leaving soon" })).body.key);
    const removedKey = String((await act(people.other, ids.a, "keys", { name: "removed soon" })).body.key);
    const teamKey = String((await act(people.owner, ids.a, "keys", { name: "stays", shared: true })).body.key);
    expect(await keyWorks(leaverKey)).toBe(200);

    const left = await act(people.member, ids.a, "leave");
    expect(left.status).toBe(200);
    expect(await keyWorks(leaverKey)).toBe(401);
    expect((await view(people.member, ids.a)).status).toBe(404);

    const removed = await act(people.admin, ids.a, "remove", { email: people.other });
    expect(removed.status).toBe(200);
    expect(await keyWorks(removedKey)).toBe(401);
    expect(await keyWorks(teamKey)).toBe(200);

    const ownerLeaves = await act(people.owner, ids.a, "leave");
    expect(ownerLeaves.status).toBe(409);
    expect(ownerLeaves.body.error).toMatch(/hand ownership over first/);
  });

  it("shows the operator usage by organisation and team, adding up to the total, and the team's own page its members' share", async () => {
    const key = String((await act(people.owner, ids.a, "keys", { name: "counted", shared: true })).body.key);
    for (let i = 0; i < 3; i++) expect(await keyWorks(key)).toBe(200);
    const ops = await signIn("ops@operator.test");
    const adminPage = async () =>
      (await fetch(`${server.url}/admin/usage`, { headers: { cookie: ops.header(), accept: BROWSER_ACCEPT } })).text();
    // The table's body rows: organisation, team, requests…; the total row last, its first cell spanning two.
    const tableRows = async () => {
      const html = (await adminPage()).replaceAll("<!-- -->", "");
      const table = html.slice(html.indexOf('aria-label="Usage by organisation and team"'));
      const body = table.slice(table.indexOf("<tbody>"), table.indexOf("</tbody>"));
      return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) =>
        [...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!.replace(/,/g, "")),
      );
    };
    // Metering writes the rollups a moment after the calls.
    let rows: string[][] = [];
    await expect
      .poll(
        async () => {
          rows = await tableRows();
          return Number(rows.find((r) => r[0] === "Acme" && r[1] === "Alpha")?.[2] ?? 0);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(3);
    const total = rows.pop()!;
    expect(total[0]).toBe("Total");
    expect(rows.reduce((sum, r) => sum + Number(r[2]), 0)).toBe(Number(total[1]));
    const team = await fetch(`${server.url}/teams?team=${ids.a}`, {
      headers: { cookie: (await signIn(people.owner)).header(), accept: BROWSER_ACCEPT },
    });
    expect(await team.text()).toContain("the team&#x27;s own keys");
  });
});
