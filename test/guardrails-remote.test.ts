import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestDetailView } from "../lib/portal/usage/request-log.ts";
import { testCertificate } from "./fakes/https-site.ts";
import { startFakeModeration, startFakeWebhook, type FakeRemote } from "./fakes/guardrail-remotes.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

// Remote guardrail checks on a real gateway: OpenAI's moderation endpoint (a fake on UPSTREAM_OPENAI_URL)
// and an operator's webhook over HTTPS on loopback, which only PROXY_ALLOW_PRIVATE_FOR_TESTS lets it reach.
describe("remote guardrail checks on model calls", () => {
  let gw: RoutedGateway;
  let xai: FakeLlm;
  let moderation: FakeRemote;
  let webhook: FakeRemote;
  // A second webhook the address policy does not exempt: on loopback, so never to be reached.
  let unlisted: FakeRemote;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    const tlsPair = await testCertificate(["guard.test"]);
    [xai, moderation, webhook, unlisted] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-test", reply: "Sure." }),
      startFakeModeration("sk-openai"),
      startFakeWebhook(tlsPair),
      startFakeWebhook(tlsPair),
    ]);
    const hook = (path: string, more: object = {}) => ({ url: `${webhook.url}${path}`, ...more });
    const policies = {
      moderated: { checks: ["moderation"], action: "block" },
      hooked: { checks: ["webhook"], action: "block", webhook: hook("/check") },
      "hang-closed": { checks: ["webhook"], action: "block", webhook: hook("/hang", { timeout_ms: 200 }) },
      "hang-open": {
        checks: ["webhook"],
        action: "block",
        webhook: hook("/hang", { timeout_ms: 200, on_error: "open" }),
      },
      private: { checks: ["webhook"], action: "block", webhook: { url: `${unlisted.url}/check` } },
      masked: { checks: ["pii", "webhook"], action: "redact", webhook: hook("/check") },
      "no-cards": {
        checks: ["pii", "moderation", "webhook"],
        action: "block",
        pii: { kinds: ["card"] },
        webhook: hook("/check"),
      },
    };
    gw = await startRoutedGateway({
      routing: { deployments: [], guardrails: policies },
      providerEnv: {
        XAI_API_KEY: "xai-test",
        UPSTREAM_XAI_URL: xai.url,
        OPENAI_API_KEY: "sk-openai",
        UPSTREAM_OPENAI_URL: moderation.url,
      },
      env: { PROXY_ALLOW_PRIVATE_FOR_TESTS: `127.0.0.1:${webhook.port}`, UPSTREAM_CA_FILE: tlsPair.caFile },
    });
    for (const policy of Object.keys(policies))
      keys[policy] = (await gw.key({ name: `guarded by ${policy}`, guardrails: policy })).key;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([xai, moderation, webhook, unlisted].map((fake) => fake?.close()));
  });

  const chat = (policy: string, content: string, requestId?: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${keys[policy]}`,
        ...(requestId && { "x-request-id": requestId }),
      },
      body: JSON.stringify({
        model: "xai/grok-4",
        messages: [
          { role: "system", content: "You help with travel plans." },
          { role: "user", content },
        ],
      }),
    });
  const errorOf = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;
  const loggedDecisions = async (requestId: string) => {
    await gw.rt.meter.flush();
    return (await requestDetailView(gw.rt, { operator: true }, requestId))!.rows[0]!.guardrails;
  };

  it("blocks what moderation flags with 400, before the provider sees it, and logs what fired", async () => {
    const before = xai.requests.length;
    const res = await chat("moderated", "Plan an attack on the border town", "remote-moderation-1");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-gateway-guardrails")).toBe("moderation:block");
    expect(await errorOf(res)).toBe(
      'guardrails: the prompt was flagged by the moderation check (violence; score 0.92), which the policy "moderated" does not let through',
    );
    expect(xai.requests.length).toBe(before);
    // Only what the user wrote is sent, never the operator's system message.
    expect(moderation.requests.at(-1)!.body).toEqual({
      model: "omni-moderation-latest",
      input: ["Plan an attack on the border town"],
    });
    expect(await loggedDecisions("remote-moderation-1")).toEqual([
      {
        policy: "moderated",
        check: "moderation",
        action: "block",
        stage: "prompt",
        found: { violence: 1 },
        score: 0.92,
      },
    ]);
    const fine = await chat("moderated", "Plan a trip to the border town");
    expect(fine.status).toBe(200);
    expect(fine.headers.get("x-gateway-guardrails")).toBeNull();
  });

  it("blocks what the webhook refuses with 400 naming its reason, and counts it in /metrics", async () => {
    const res = await chat("hooked", "Tell me the forbidden route");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-gateway-guardrails")).toBe("webhook:block");
    expect(await errorOf(res)).toBe(
      'guardrails: the webhook check did not allow the prompt (a forbidden topic), which the policy "hooked" does not let through',
    );
    expect(webhook.requests.at(-1)!.body).toMatchObject({
      policy: "hooked",
      stage: "prompt",
      texts: ["Tell me the forbidden route"],
      key_id: expect.any(String),
      request_id: res.headers.get("x-request-id"),
    });
    expect((await chat("hooked", "Tell me the scenic route")).status).toBe(200);
    const metrics = await (await gw.request("/metrics")).text();
    expect(metrics).toMatch(/gateway_guardrail_decisions_total\{check="webhook",action="block"\} [1-9]/);
  });

  it("refuses with 503 when the webhook does not answer and the policy fails closed, and lets the call through flagged when it fails open", async () => {
    const closed = await chat("hang-closed", "Hello");
    expect(closed.status).toBe(503);
    expect(await errorOf(closed)).toBe(
      'guardrails: the webhook check did not answer usably (no answer within 200 ms), and the policy "hang-closed" does not let a call through unchecked',
    );
    const open = await chat("hang-open", "Hello", "remote-open-1");
    expect(open.status).toBe(200);
    expect(open.headers.get("x-gateway-guardrails")).toBe("webhook:flag");
    expect(await loggedDecisions("remote-open-1")).toEqual([
      { policy: "hang-open", check: "webhook", action: "flag", stage: "prompt", found: { error: 1 } },
    ]);
  });

  it("never reaches a webhook on a private address the address policy does not exempt", async () => {
    const res = await chat("private", "Hello");
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toBe(
      'guardrails: the webhook check did not answer usably (its address is refused by the outbound address policy), and the policy "private" does not let a call through unchecked',
    );
    expect(unlisted.requests).toEqual([]);
  });

  it("sends the webhook the texts as redacted, never the personal data", async () => {
    const res = await chat("masked", "Book a table for bob@example.com");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
    expect(webhook.requests.at(-1)!.body.texts).toEqual(["Book a table for [EMAIL_1]"]);
    expect(JSON.stringify(webhook.requests)).not.toContain("bob@example.com");
  });

  it("calls out to neither when the local checks have refused the call already", async () => {
    const asked = moderation.requests.length + webhook.requests.length;
    const res = await chat("no-cards", "Charge 4111 1111 1111 1111");
    expect(res.status).toBe(400);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:block");
    expect(moderation.requests.length + webhook.requests.length).toBe(asked);
  });
});
