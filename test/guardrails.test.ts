import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorApp } from "../lib/gateway/keys/operator.ts";
import { requestDetailView } from "../lib/portal/usage/request-log.ts";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends } from "./support/backends.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const PROMPT = "Write to bob@example.com and call +44 20 7946 0958 about card 4111 1111 1111 1111.";

// On both databases: the decisions are written by the driver's own unnest statement (lib/usage/writer.ts).
describe.each(databaseBackends)("guardrail policies on model calls (%s)", (db) => {
  let gw: RoutedGateway;
  let xai: FakeLlm;
  let anthropic: FakeLlm;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    [xai, anthropic] = await Promise.all([
      // The model repeats the placeholders it was sent, as a model asked to draft a reply would.
      startFakeOpenAICompatible({ key: "xai-test", reply: "Done: wrote to [EMAIL_1] and rang [PHONE_1]." }),
      startFakeAnthropic({ key: "anthropic-test", reply: "Noted." }),
    ]);
    gw = await startRoutedGateway({
      db,
      routing: {
        deployments: [],
        aliases: { private: { deployments: ["xai/grok-4"], guardrails: "mask" } },
        guardrails: {
          mask: { checks: ["pii"], action: "redact" },
          strict: { checks: ["pii"], action: "block", pii: { kinds: ["card"] } },
          watch: { checks: ["pii"], action: "flag" },
        },
      },
      providerEnv: {
        XAI_API_KEY: "xai-test",
        UPSTREAM_XAI_URL: xai.url,
        ANTHROPIC_API_KEY: "anthropic-test",
        UPSTREAM_ANTHROPIC_URL: anthropic.url,
      },
    });
    for (const policy of ["mask", "strict", "watch"])
      keys[policy] = (await gw.key({ name: `guarded by ${policy}`, guardrails: policy })).key;
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([xai?.close(), anthropic?.close()]);
  });

  const post = (path: string, key: string, body: object, requestId?: string) =>
    gw.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": key,
        ...(requestId && { "x-request-id": requestId }),
      },
      body: JSON.stringify(body),
    });
  const lastSent = (fake: FakeLlm) => JSON.stringify(fake.requests.at(-1)!.body);

  it("redacts the prompt for the provider and puts the values back in the whole answer", async () => {
    const res = await post(
      "/v1/chat/completions",
      keys.mask!,
      { model: "xai/grok-4", messages: [{ role: "user", content: PROMPT }] },
      "guard-redact-1",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe("Done: wrote to bob@example.com and rang +44 20 7946 0958.");
    const sent = lastSent(xai);
    expect(sent).toContain("Write to [EMAIL_1] and call [PHONE_1] about card [CARD_1].");
    for (const value of ["bob@example.com", "7946", "4111"]) expect(sent).not.toContain(value);

    // The log keeps what fired, by kind and count, never a value.
    await gw.rt.meter.flush();
    const row = (await requestDetailView(gw.rt, { operator: true }, "guard-redact-1"))!.rows[0]!;
    expect(row.guardrails).toEqual([
      { policy: "mask", check: "pii", action: "redact", stage: "prompt", found: { email: 1, phone: 1, card: 1 } },
    ]);
    expect(JSON.stringify(row)).not.toContain("bob@example.com");
  });

  it("checks a long prompt on a worker thread, with the same redaction and answer", async () => {
    // Past OFFLOAD_CHARS (lib/guardrails/prompt-offload.ts): the checks run on the worker pool's thread.
    const filler = "The quarterly report covers revenue, costs and the outlook. ".repeat(700);
    const res = await post(
      "/v1/chat/completions",
      keys.mask!,
      { model: "xai/grok-4", messages: [{ role: "user", content: `${PROMPT}\n${filler}\nCc ann@example.com.` }] },
      "guard-redact-long",
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
    const body = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe("Done: wrote to bob@example.com and rang +44 20 7946 0958.");
    const sent = lastSent(xai);
    expect(sent.length).toBeGreaterThan(40_000);
    expect(sent).toContain("Write to [EMAIL_1] and call [PHONE_1] about card [CARD_1].");
    expect(sent).toContain("Cc [EMAIL_2].");
    for (const value of ["bob@example.com", "ann@example.com", "4111"]) expect(sent).not.toContain(value);
    await gw.rt.meter.flush();
    const row = (await requestDetailView(gw.rt, { operator: true }, "guard-redact-long"))!.rows[0]!;
    expect(row.guardrails).toEqual([
      { policy: "mask", check: "pii", action: "redact", stage: "prompt", found: { email: 2, phone: 1, card: 1 } },
    ]);
  });

  it("puts the values back in a streamed answer, and redacts an alias's calls for a key with no policy", async () => {
    const res = await post("/v1/chat/completions", gw.apiKey, {
      model: "private",
      stream: true,
      messages: [{ role: "user", content: PROMPT }],
    });
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
    const events = await res.text();
    const text = events
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map(
        (l) =>
          (JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ??
          "",
      )
      .join("");
    expect(text).toBe("Done: wrote to bob@example.com and rang +44 20 7946 0958.");
    expect(lastSent(xai)).not.toContain("bob@example.com");
  });

  it("blocks a prompt in the surface's own error shape, before anything reaches the provider", async () => {
    const before = anthropic.requests.length;
    const res = await post("/v1/messages", keys.strict!, {
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 50,
      messages: [{ role: "user", content: PROMPT }],
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:block");
    expect(await res.json()).toEqual({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: 'guardrails: the prompt holds personal data (card), which the policy "strict" does not let through',
      },
    });
    expect(anthropic.requests.length).toBe(before);
    // The same policy lets a prompt with no card through: it looks for cards only.
    const fine = await post("/v1/messages", keys.strict!, {
      model: "anthropic/claude-sonnet-4-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "Write to bob@example.com." }],
    });
    expect(fine.status).toBe(200);
    expect(fine.headers.get("x-gateway-guardrails")).toBeNull();
  });

  it("flags without changing anything, and counts each decision in /metrics", async () => {
    const res = await post("/v1/responses", keys.watch!, { model: "xai/grok-4", input: PROMPT, store: false });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:flag");
    expect(lastSent(xai)).toContain("bob@example.com");
    const metrics = await (await gw.request("/metrics")).text();
    for (const action of ["redact", "block", "flag"])
      expect(metrics).toMatch(
        new RegExp(`gateway_guardrail_decisions_total\\{check="pii",action="${action}"\\} [1-9]`),
      );
  });

  it("lets the keys CLI give a key a policy the routing file declares, and refuses one it does not", async () => {
    const operator = operatorApp(gw.rt, "operator-token");
    const create = (guardrails: string) =>
      operator.request("/keys", {
        method: "POST",
        headers: { authorization: "Bearer operator-token", "content-type": "application/json" },
        body: JSON.stringify({ name: `cli ${guardrails}`, guardrails }),
      });
    const made = await create("mask");
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const res = await post("/v1/chat/completions", key, {
      model: "xai/grok-4",
      messages: [{ role: "user", content: PROMPT }],
    });
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
    const refused = await create("nowhere");
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 'guardrails: no policy "nowhere" in the routing file' });
  });

  it("gives a key made by a guarded key's admin API its maker's policy: never one whose calls escape it", async () => {
    const { key: admin } = await gw.key({ name: "guarded admin", scopes: ["keys:admin", "llm"], guardrails: "mask" });
    const made = await post("/v1/admin/keys", admin, { name: "child", scopes: ["llm"] });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const res = await post("/v1/chat/completions", key, {
      model: "xai/grok-4",
      messages: [{ role: "user", content: PROMPT }],
    });
    expect(res.headers.get("x-gateway-guardrails")).toBe("pii:redact");
  });

  it("refuses a call whose policy the routing file no longer declares, rather than letting it through", async () => {
    const { key } = await gw.key({ name: "policy gone", guardrails: "gone" });
    const res = await post("/v1/chat/completions", key, {
      model: "xai/grok-4",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /policy "gone" .* not in the routing file/,
    );
  });
});
