import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorApp } from "../lib/gateway/keys/operator.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const CARD = "Charge card 4111 1111 1111 1111 for the order.";
const TOKEN = "team-guardrails-operator";

/**
 * A team's guardrail policy: its keys without one of their own take it, before their alias's; a key that
 * names its own keeps it. The operator sets it through the loopback endpoint the keys CLI goes through.
 */
describe("team guardrail policies", () => {
  let gw: RoutedGateway;
  let xai: FakeLlm;
  let operator: ReturnType<typeof operatorApp>;
  let team: string;

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-test", reply: "Charged." });
    gw = await startRoutedGateway({
      routing: {
        deployments: [],
        aliases: { private: { deployments: ["xai/grok-4"], guardrails: "watch" } },
        guardrails: {
          strict: { checks: ["pii"], action: "block", pii: { kinds: ["card"] } },
          watch: { checks: ["pii"], action: "flag" },
        },
      },
      providerEnv: { XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: xai.url },
    });
    operator = operatorApp(gw.rt, TOKEN);
    const tag = randomBytes(4).toString("hex");
    const org = (await command("create-org", { name: `Guarded ${tag}` })).lines[0] as { id: string };
    team = ((await command("create-team", { organisation: org.id, name: `Careful ${tag}` })).lines[0] as { id: string })
      .id;
  });
  afterAll(async () => {
    await gw?.close();
    await xai?.close();
  });

  async function command(name: string, input: object): Promise<{ status: number; lines: unknown[]; error?: string }> {
    const res = await operator.request(`/teams/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(input),
    });
    return { status: res.status, ...((await res.json()) as { lines: unknown[]; error?: string }) };
  }
  const chat = (key: string, model = "xai/grok-4") =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: CARD }] }),
    });

  it("refuses a policy the routing file does not declare, naming it", async () => {
    const refused = await command("set-guardrails", { team, guardrails: "nowhere" });
    expect(refused.status).toBe(400);
    expect(refused.error).toBe('guardrails: no policy "nowhere" in the routing file');
  });

  it("puts a team's key without a policy of its own under the team's, before its alias's", async () => {
    const { key } = await gw.key({ name: "team key", team });
    // Before the team names one: the alias's flag.
    expect((await chat(key, "private")).headers.get("x-gateway-guardrails")).toBe("pii:flag");

    const set = await command("set-guardrails", { team, guardrails: "strict" });
    expect(set).toMatchObject({ status: 200, lines: [{ team, guardrails: "strict" }] });
    const before = xai.requests.length;
    for (const model of ["xai/grok-4", "private"]) {
      const res = await chat(key, model);
      expect(res.status).toBe(400);
      expect(res.headers.get("x-gateway-guardrails")).toBe("pii:block");
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
        'guardrails: the prompt holds personal data (card), which the policy "strict" does not let through',
      );
    }
    expect(xai.requests.length).toBe(before);
  });

  it("leaves a team's key with its own policy under its own", async () => {
    await command("set-guardrails", { team, guardrails: "strict" });
    const { key } = await gw.key({ name: "own policy", team, guardrails: "watch" });
    const res = await chat(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:flag");
  });

  it("lets the team's keys through again once the policy is cleared", async () => {
    const { key } = await gw.key({ name: "after clearing", team });
    await command("set-guardrails", { team, guardrails: "strict" });
    expect((await chat(key)).status).toBe(400);
    const cleared = await command("set-guardrails", { team, guardrails: null });
    expect(cleared.lines).toEqual([{ team, guardrails: null }]);
    const res = await chat(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBeNull();
    const audit = await gw.rt.db.prisma.auditLog.findMany({ where: { action: "team.guardrails", target: team } });
    expect(audit.map((a) => a.detail)).toContainEqual({ guardrails: null });
  });
});
