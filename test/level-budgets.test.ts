import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runTeamCommand, type TeamCommand } from "../lib/gateway/teams/team-commands.ts";
import { resetPrice, savePrice } from "../lib/usage/prices.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startTestSmtp, type TestSmtp } from "./support/mail.ts";
import { xaiAndMailEnv } from "./support/provider-env.ts";
import { useGateway } from "./support/use-gateway.ts";

const tag = () => randomBytes(4).toString("hex");

/**
 * Monthly budgets above the key: a user's across all their keys, a team's across its keys, an
 * organisation's across its teams. Every key's spending counts into each; a used-up hard stop refuses
 * with the 429 that names the level; alerts at 80 % and 100 % go once to the level's people.
 */
describe("monthly budgets at every level, against a fake provider and a loopback SMTP server", () => {
  let xai: FakeLlm;
  let smtp: TestSmtp;
  const t = useGateway({
    fakes: async () => {
      [xai, smtp] = await Promise.all([
        // Every call: 1,000 prompt and 500 completion tokens.
        startFakeOpenAICompatible({
          key: "xai-l",
          reply: "Spent.",
          usage: { prompt_tokens: 1000, completion_tokens: 500 },
        }),
        startTestSmtp(),
      ]);
      return [xai, smtp];
    },
    env: () => xaiAndMailEnv({ url: xai.url, key: "xai-l" }, smtp.url),
  });

  /** An operator's team command, applied at once as the operator endpoint applies it. */
  const op = async (command: TeamCommand, input: object) => {
    const { lines } = await runTeamCommand(t.gw.rt.db, command, input, "test");
    await Promise.all([t.gw.rt.levels.refresh(), t.gw.rt.budgets.refresh()]);
    return lines[0] as { id: string };
  };
  const chat = (key: string) =>
    t.gw.request("/v1/llm/chat", {
      method: "POST",
      headers: { "content-type": "application/json", "X-API-Key": key },
      body: JSON.stringify({ messages: [{ role: "user", content: "Spend." }] }),
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

  /** An organisation with a team whose owner, admin and member are three addresses. */
  async function world(t0 = tag()) {
    const org = await op("create-org", { name: `Org ${t0}` });
    const team = await op("create-team", { organisation: org.id, name: `Team ${t0}` });
    const people = {
      owner: `owner-${t0}@example.test`,
      admin: `admin-${t0}@example.test`,
      member: `member-${t0}@example.test`,
    };
    for (const [role, email] of Object.entries(people)) await op("add-member", { team: team.id, email, role });
    return { t: t0, org, team, people };
  }

  it("a team's request budget counts all its keys, mails its owner and admins at 80 % and 100 %, then refuses naming the team", async () => {
    const w = await world();
    await op("set-limits", { level: "team", subject: w.team.id, budget: { metric: "requests", limit: 5 } });
    const teamKey = (await t.gw.key({ name: `shared ${w.t}`, team: w.team.id })).key;
    const memberKey = (await t.gw.key({ name: `mine ${w.t}`, email: w.people.member, team: w.team.id })).key;
    const since = smtp.mails.length;
    for (const key of [teamKey, memberKey, teamKey, memberKey]) expect((await chat(key)).status).toBe(200);
    const eighty = await smtp.waitFor(w.people.owner, /team Team \S+ has used 80% of its monthly budget/, { since });
    expect(eighty.text).toMatch(/4 of 5 requests/);
    await smtp.waitFor(w.people.admin, /used 80%/, { since });
    expect((await chat(memberKey)).status).toBe(200);
    const hundred = await smtp.waitFor(w.people.owner, /used all of its monthly budget/, { since });
    expect(hundred.text).toMatch(/Requests with the team's keys are refused \(429\)/);

    // Both keys are refused now, and so is a key made after the budgets were last read.
    const later = (await t.gw.key({ name: `later ${w.t}`, team: w.team.id })).key;
    for (const key of [teamKey, memberKey, later]) {
      const refused = await chat(key);
      expect(refused.status).toBe(429);
      expect(await errorOf(refused)).toMatch(
        new RegExp(
          `^monthly budget exceeded: team "Team ${w.t}".s budget of 5 requests for \\d{4}-\\d{2} \\(UTC\\) is used up \\(5 of 5 requests\\)`,
        ),
      );
      expect(refused.headers.get("x-ratelimit-limit")).toBe("5");
    }
    // The member hears nothing: alerts go to who runs the team, once each.
    await smtp.waitFor(w.people.admin, /used all of its monthly budget/, { since });
    await new Promise((r) => setTimeout(r, 300));
    const mailed = smtp.mails.slice(since);
    expect(mailed.filter((m) => m.to.includes(w.people.member))).toHaveLength(0);
    expect(mailed.filter((m) => m.to.includes(w.people.owner))).toHaveLength(2);
    expect(mailed.filter((m) => m.to.includes(w.people.admin))).toHaveLength(2);

    // GET /v1/key shows the level's budget and where it stands; a reload from the rollups agrees.
    await t.gw.rt.meter.flush();
    await t.gw.rt.budgets.refresh();
    const info = (await (await t.gw.request("/v1/key", { headers: { "X-API-Key": teamKey } })).json()) as {
      levels: { level: string; budget: object | null }[];
    };
    expect(info.levels).toEqual([
      expect.objectContaining({
        level: "team",
        budget: expect.objectContaining({ metric: "requests", monthly_limit: 5, used: 5, hard_stop: true }),
      }),
    ]);
    expect(await t.gw.rt.db.prisma.budgetAlert.count({ where: { keyId: `team:${w.team.id}` } })).toBe(2);

    // Another team of the organisation, and the member's personal-space key, spend on.
    const other = await op("create-team", { organisation: w.org.id, name: `Other ${w.t}` });
    expect((await chat((await t.gw.key({ name: `other ${w.t}`, team: other.id })).key)).status).toBe(200);
    expect((await chat((await t.gw.key({ name: `personal ${w.t}`, email: w.people.member })).key)).status).toBe(200);

    // Removing the budget lets the team's keys through at once.
    await op("set-limits", { level: "team", subject: w.team.id, budget: null });
    expect((await chat(teamKey)).status).toBe(200);
  });

  it("an organisation's cost budget adds up its teams' spend; alerts only, it never refuses", async () => {
    // $10 and $20 a million tokens: a call costs $0.01 + $0.01.
    await savePrice(t.gw.rt.db, { provider: "xai", model: "grok-4-fast", input: 10, output: 20 }, "operator");
    try {
      const w = await world();
      const second = await op("create-team", { organisation: w.org.id, name: `Second ${w.t}` });
      const secondOwner = `second-${w.t}@example.test`;
      await op("add-member", { team: second.id, email: secondOwner, role: "owner" });
      await op("set-limits", {
        level: "organisation",
        subject: `Org ${w.t}`,
        budget: { metric: "cost", limit: 0.05, hardStop: false },
      });
      const keys = [
        (await t.gw.key({ name: `a ${w.t}`, team: w.team.id })).key,
        (await t.gw.key({ name: `b ${w.t}`, team: second.id })).key,
      ];
      const since = smtp.mails.length;
      expect((await chat(keys[0]!)).status).toBe(200);
      expect((await chat(keys[1]!)).status).toBe(200);
      // $0.04 of $0.05: 80 %, to the owners and admins of every team in the organisation.
      const eighty = await smtp.waitFor(secondOwner, /organisation Org \S+ has used 80% of its monthly budget/, {
        since,
      });
      expect(eighty.text).toMatch(/\$0\.04 of \$0\.05 \(estimated\)/);
      await smtp.waitFor(w.people.owner, /used 80%/, { since });
      expect((await chat(keys[0]!)).status).toBe(200);
      const hundred = await smtp.waitFor(w.people.admin, /used all of its monthly budget/, { since });
      expect(hundred.text).toMatch(/still go through \(the budget has no hard stop\)/);
      expect((await chat(keys[1]!)).status).toBe(200);
      // The last call is counted as it is metered, a moment after its answer.
      await expect
        .poll(() => Math.round((t.gw.rt.budgets.levelStatus(`org:${w.org.id}`)?.used ?? 0) * 1e6))
        .toBe(80_000);
    } finally {
      await resetPrice(t.gw.rt.db, "xai", "grok-4-fast");
    }
  });

  it("a user's token budget spans their personal and team keys and mails the user; the refusal names the account", async () => {
    const w = await world();
    await op("set-limits", { level: "user", subject: w.people.member, budget: { metric: "tokens", limit: 3000 } });
    const personal = (await t.gw.key({ name: `own ${w.t}`, email: w.people.member })).key;
    const forTeam = (await t.gw.key({ name: `team ${w.t}`, email: w.people.member, team: w.team.id })).key;
    const since = smtp.mails.length;
    expect((await chat(personal)).status).toBe(200);
    expect((await chat(forTeam)).status).toBe(200);
    const mail = await smtp.waitFor(
      w.people.member,
      /Your account has used all of its monthly budget across your keys/,
      {
        since,
      },
    );
    expect(mail.raw).toMatch(/Subject: Budget used up: your account, \d{4}-\d{2}/);
    for (const key of [personal, forTeam]) {
      const refused = await chat(key);
      expect(refused.status).toBe(429);
      expect(await errorOf(refused)).toMatch(
        /the budget of the account this key belongs to of 3,000 tokens .* is used up/,
      );
    }
    // The team's own key is not the member's: it spends on.
    expect((await chat((await t.gw.key({ name: `shared ${w.t}`, team: w.team.id })).key)).status).toBe(200);
  });
});
