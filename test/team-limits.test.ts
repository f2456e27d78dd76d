import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readOperatorEndpoint, startOperatorServer } from "../lib/gateway/keys/operator.ts";
import { runTeamCommand, type TeamCommand } from "../lib/gateway/teams/team-commands.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { limitBackends } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { runKeysCli } from "./support/server-process.ts";

// The fake meters every call 10 + 20 tokens; this body reserves 56 (6 of prompt, max_tokens 50).
const USAGE = { prompt_tokens: 10, completion_tokens: 20 };
const BODY = JSON.stringify({
  model: "xai/grok-4",
  messages: [{ role: "user", content: "Count me." }],
  max_tokens: 50,
});

type Level = "user" | "team" | "organisation";
type Window = "minute" | "day" | "tokensMinute" | "tokensDay";

// Two calls pass and the third is refused in each window: 2 requests, or 100 tokens (56 reserved and 30
// settled, then 30 + 56, then 60 + 56 is over).
const LIMIT: Record<Window, number> = { minute: 2, day: 2, tokensMinute: 100, tokensDay: 100 };
const SAYS: Record<Window, RegExp> = {
  minute: /at most 2 requests per minute/,
  day: /daily limit of 2 requests .* is used up; it resets at midnight UTC/,
  tokensMinute: /at most 100 tokens per minute for/,
  tokensDay: /at most 100 tokens per day \(UTC\) for/,
};

const tag = () => randomBytes(4).toString("hex");

/**
 * A minute window's three calls must not straddle a minute's start (the sliding window would carry only
 * part of the previous minute): when one is about to begin, wait for it.
 */
async function clearOfMinuteStart(): Promise<void> {
  const into = Date.now() % 60_000;
  if (into > 50_000) await new Promise((r) => setTimeout(r, 60_500 - into));
}

/**
 * Limits above the key: a user's over all their keys, a team's over its keys, an organisation's over its
 * teams. A call passes only if every level passes, and a refusal is the 429 that names the level and the
 * window, whichever key of the level made it.
 */
describe.each(limitBackends)("limits at every level (%s limits)", (limits) => {
  let gw: TestGateway;
  let xai: FakeLlm;

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Counted.", usage: USAGE });
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    gw = await startTestGateway({ limits });
  });
  afterAll(async () => {
    await gw?.close();
    await xai?.close();
  });

  const team = async (command: TeamCommand, input: object) => {
    const { lines } = await runTeamCommand(gw.rt.db, command, input, "test");
    await gw.rt.levels.refresh();
    return lines[0] as { id: string };
  };
  const chat = (key: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: BODY,
    });

  /** An organisation, a team in it and a member with a personal key for the team: every level over one key. */
  async function world() {
    const t = tag();
    const org = await team("create-org", { name: `Org ${t}` });
    const squad = await team("create-team", { organisation: org.id, name: `Team ${t}` });
    const email = `member-${t}@example.test`;
    await team("add-member", { team: squad.id, email });
    const key = async (name: string) => (await gw.key({ name: `${name} ${t}`, email, team: squad.id })).key;
    return { t, org, team: squad, email, key };
  }

  const levels: Level[] = ["user", "team", "organisation"];
  const windows: Window[] = ["minute", "day", "tokensMinute", "tokensDay"];
  for (const level of levels)
    for (const window of windows)
      it(`the ${level}'s ${window} window refuses the call that does not fit, naming the ${level}`, async () => {
        const w = await world();
        const subject = level === "user" ? w.email : level === "team" ? w.team.id : w.org.id;
        await team("set-limits", { level, subject, [window]: LIMIT[window] });
        // Two keys: the level counts both (the user's two keys, the team's, the organisation's).
        const [first, second] = [await w.key("first"), await w.key("second")];
        if (window === "minute" || window === "tokensMinute") await clearOfMinuteStart();
        const statuses = [(await chat(first)).status, (await chat(second)).status];
        const refused = await chat(first);
        expect([...statuses, refused.status]).toEqual([200, 200, 429]);
        const { error } = (await refused.json()) as { error: { type: string; message: string } };
        expect(error.type).toBe("rate_limit_error");
        expect(error.message).toMatch(SAYS[window]);
        const named = {
          user: /the account this key belongs to/,
          team: `team "Team ${w.t}"`,
          organisation: `organisation "Org ${w.t}"`,
        }[level];
        expect(error.message).toMatch(named);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
        if (window === "minute" || window === "day") expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
        else expect(refused.headers.get("x-ratelimit-limit-tokens")).toBe("100");
      });

  it("keeps levels apart: a team's used-up window leaves another team of its organisation alone", async () => {
    const w = await world();
    await team("set-limits", { level: "team", subject: w.team.id, day: 1 });
    const other = await team("create-team", { organisation: w.org.id, name: `Other ${w.t}` });
    const teamKey = (await gw.key({ name: `team key ${w.t}`, team: w.team.id })).key;
    const otherKey = (await gw.key({ name: `other key ${w.t}`, team: other.id })).key;
    expect((await chat(teamKey)).status).toBe(200);
    expect((await chat(teamKey)).status).toBe(429);
    expect((await chat(otherKey)).status).toBe(200);
    // A key outside any team, and the member's personal-space key, know nothing of the team's limit.
    expect((await chat((await gw.key({ name: `personal ${w.t}`, email: w.email })).key)).status).toBe(200);
  });

  it("shows the key's team and every level over it on GET /v1/key, with the nearest window in the headers", async () => {
    const w = await world();
    await team("set-limits", { level: "organisation", subject: w.org.id, day: 1000, tokensDay: 50_000 });
    await team("set-limits", { level: "team", subject: w.team.id, day: 5 });
    const key = await w.key("info");
    const info = await gw.request("/v1/key", { headers: { authorization: `Bearer ${key}` } });
    // The team's 5 a day is nearer exhaustion than the key's own or the organisation's.
    expect(info.headers.get("x-ratelimit-limit")).toBe("5");
    expect(info.headers.get("x-ratelimit-remaining")).toBe("4");
    const body = (await info.json()) as { team: object; levels: object[] };
    expect(body.team).toEqual({
      id: w.team.id,
      name: `Team ${w.t}`,
      organisation: { id: w.org.id, name: `Org ${w.t}` },
    });
    expect(body.levels).toEqual([
      {
        level: "team",
        id: w.team.id,
        name: `Team ${w.t}`,
        limits: { minute: null, day: 5, tokens_minute: null, tokens_day: null },
        budget: null,
      },
      {
        level: "organisation",
        id: w.org.id,
        name: `Org ${w.t}`,
        limits: { minute: null, day: 1000, tokens_minute: null, tokens_day: 50_000 },
        budget: null,
      },
    ]);
    // Clearing a window (null) takes the level off the key's chain once nothing else is set there.
    await team("set-limits", { level: "team", subject: w.team.id, day: null });
    const after = (await (await gw.request("/v1/key", { headers: { authorization: `Bearer ${key}` } })).json()) as {
      levels: { level: string }[];
    };
    expect(after.levels.map((l) => l.level)).toEqual(["organisation"]);
  });

  // The CLI writes the database; which store counts is beside the point, so it runs once. Each CLI run
  // starts a process (seconds on a busy machine): the CLI runs each kind of command once, the rest go to
  // the operator endpoint it talks to, as it would.
  it.runIf(limits === limitBackends[0])(
    "runs teams from the keys CLI: organisation, team, members and roles, limits, team keys, and a member leaving",
    { timeout: 240_000 },
    async () => {
      const operator = await startOperatorServer(gw.rt);
      const cli = async (...args: string[]) => {
        const run = await runKeysCli(args, gw.env);
        expect(run.code, run.stderr).toBe(0);
        return run.lines as Record<string, unknown>[];
      };
      const endpoint = readOperatorEndpoint(gw.env.DATA_DIR!)!;
      const op = async (path: string, body: object) => {
        const res = await fetch(`${endpoint.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${endpoint.token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      try {
        const t = tag();
        const org = (await cli("create-org", "--name", `Cli Org ${t}`))[0]!;
        const squad = (await cli("create-team", "--org", `Cli Org ${t}`, "--name", `Cli Team ${t}`))[0]!;
        await cli("add-member", String(squad.id), "--email", `owner-${t}@example.test`, "--role", "owner");
        await op("/teams/add-member", { team: squad.id, email: `dev-${t}@example.test` });
        // Naming a new owner hands ownership over: the previous owner becomes an admin.
        const handed = await op("/teams/add-member", { team: squad.id, email: `dev-${t}@example.test`, role: "owner" });
        expect((handed.body.lines as object[])[0]).toMatchObject({
          role: "owner",
          previousOwner: `owner-${t}@example.test`,
        });
        await cli(
          "set-limits",
          "team",
          `Cli Team ${t}`,
          "--day",
          "100",
          "--tokens-minute",
          "5000",
          "--monthly-cost",
          "50",
          "--alert-only",
        );
        await op("/teams/set-limits", { level: "organisation", subject: org.id, tokensDay: 90_000 });

        const personal = (
          await cli("create", "--name", `mine ${t}`, "--email", `owner-${t}@example.test`, "--team", String(squad.id))
        )[0]!;
        const shared = (await op("/keys", { name: `shared ${t}`, team: squad.id })).body;
        const listing = (await cli("teams")).find((o) => o.id === org.id) as {
          limits: object;
          teams: { limits: object; keys: number; members: { email: string; role: string }[] }[];
        };
        expect(listing.limits).toEqual({ tokensDay: 90_000 });
        expect(listing.teams[0]).toMatchObject({
          limits: { day: 100, tokensMinute: 5000, budget: { metric: "cost", limit: 50, hardStop: false } },
          keys: 2,
        });
        expect(listing.teams[0]!.members.map((m) => [m.email, m.role]).sort()).toEqual([
          [`dev-${t}@example.test`, "owner"],
          [`owner-${t}@example.test`, "admin"],
        ]);
        const info = (await (
          await gw.request("/v1/key", { headers: { authorization: `Bearer ${String(personal.key)}` } })
        ).json()) as { levels: { level: string }[] };
        expect(info.levels.map((l) => l.level)).toEqual(["team", "organisation"]);

        // A personal key for a team only for its members, and never for a viewer.
        const stranger = await op("/keys", { name: `x ${t}`, email: `nobody-${t}@example.test`, team: squad.id });
        expect(stranger.status).toBe(409);
        expect(stranger.body.error).toMatch(/not a member of Cli Team/);

        // Leaving: the member's personal key for the team is revoked at once; the team's own key stays.
        const left = (await cli("remove-member", String(squad.id), "--email", `owner-${t}@example.test`))[0]!;
        expect(left.revokedKeys).toEqual([personal.id]);
        expect((await chat(String(personal.key))).status).toBe(401);
        expect((await chat(String(shared.key))).status).toBe(200);
        // The owner stays until ownership moves on.
        const owner = await op("/teams/remove-member", { team: squad.id, email: `dev-${t}@example.test` });
        expect(owner.status).toBe(409);
        expect(owner.body.error).toMatch(/make another member the owner first/);
        // Every change is in the audit log.
        const actions = await gw.rt.db.prisma.auditLog.findMany({
          where: { actor: "operator-cli", target: String(squad.id) },
        });
        expect(actions.map((a) => a.action).sort()).toEqual([
          "team.create",
          "team.member",
          "team.member",
          "team.member",
          "team.remove_member",
        ]);
      } finally {
        await operator.close();
      }
    },
  );
});
