import http from "node:http";
import https from "node:https";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCertificate } from "../../test/fakes/https-site.ts";
import { listen, type Listening } from "../../test/support/listen.ts";
import { parseRoutingConfig } from "../llm/routing/config.ts";
import { guardrailPolicySchema, toPolicy } from "./policy.ts";
import { guardPrompt } from "./prompt-guard.ts";
import { guardRemotely, REMOTE_TEXT_MAX_BYTES, remoteTexts, type RemoteContext } from "./remote-checks.ts";

type Seen = { headers: http.IncomingHttpHeaders; body: Record<string, unknown> };
/** How a fake answers one request: a status and a body, or nothing at all (a service that hangs). */
type Answer = { status: number; body: unknown } | "hang";

/** Reads a request's JSON, records it, and answers as `answer` says once it resolves. */
function handler(seen: Seen[], answer: (body: Record<string, unknown>) => Answer | Promise<Answer>) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push({ headers: req.headers, body });
      void Promise.resolve(answer(body)).then((a) => {
        if (a === "hang") return;
        res.writeHead(a.status, { "content-type": "application/json" });
        res.end(typeof a.body === "string" ? a.body : JSON.stringify(a.body));
      });
    });
  };
}

/** One moderation result: every category false and scored 0.01, but those given. */
function result(scores: Record<string, number>, flagged: string[] = []) {
  const names = ["harassment", "hate", "violence", "self-harm", "sexual", "illicit"];
  return {
    flagged: flagged.length > 0,
    categories: Object.fromEntries(names.map((n) => [n, flagged.includes(n)])),
    category_scores: Object.fromEntries(names.map((n) => [n, scores[n] ?? 0.01])),
  };
}

const policy = (spec: object, name = "remote") => toPolicy(name, guardrailPolicySchema.parse(spec));
const chat = (...contents: string[]) => ({
  messages: [
    { role: "system", content: "You are the operator's assistant." },
    ...contents.map((c) => ({ role: "user", content: c })),
  ],
});

describe("remote guardrail checks", () => {
  let moderation: Listening<http.Server>;
  let webhook: Listening<https.Server>;
  let ca: string;
  const moderated: Seen[] = [];
  const hooked: Seen[] = [];
  let moderationAnswer: (body: Record<string, unknown>) => Answer | Promise<Answer>;
  let webhookAnswer: (body: Record<string, unknown>) => Answer | Promise<Answer>;

  beforeAll(async () => {
    const tls = await testCertificate(["guard.test"]);
    ca = tls.cert;
    moderation = await listen(http.createServer(handler(moderated, (b) => moderationAnswer(b))));
    webhook = await listen(
      https.createServer(
        { key: tls.key, cert: tls.cert },
        handler(hooked, (b) => webhookAnswer(b)),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all([moderation?.close(), webhook?.close()]);
  });

  const warnings: Record<string, unknown>[] = [];
  const context = (allowPrivate = true): RemoteContext => ({
    requestId: "req-1",
    keyId: "key-1",
    openai: { origin: moderation.url, apiKey: "sk-moderation" },
    addresses: { allowPrivate: new Set(allowPrivate ? [`127.0.0.1:${webhook.port}`] : []), extraCa: ca },
    warn: (fields) => warnings.push(fields),
  });
  const hookUrl = () => `${webhook.url}/check`;
  const run = (p: ReturnType<typeof policy>, body: Record<string, unknown>, ctx = context()) =>
    guardRemotely(p, body, guardPrompt(p, body), ctx);

  it("sends the users' texts, not the operator's, cut to 64 kB in all", () => {
    expect(remoteTexts(chat("one", "two"))).toEqual(["one", "two"]);
    const big = "é".repeat(REMOTE_TEXT_MAX_BYTES / 2 - 1) + "xé";
    const texts = remoteTexts(chat(big, "never sent"));
    expect(texts).toHaveLength(1);
    // The last two-byte character would cross the limit: it is left out, never cut in half.
    expect(texts[0]).toBe(big.slice(0, -1));
    expect(Buffer.byteLength(texts[0]!)).toBe(REMOTE_TEXT_MAX_BYTES - 1);
  });

  it("blocks on the categories OpenAI flags, sending it the texts in one call", async () => {
    moderationAnswer = () => ({
      status: 200,
      body: {
        id: "modr-1",
        model: "omni-moderation-latest",
        results: [result({}), result({ violence: 0.91, hate: 0.6 }, ["violence", "hate"])],
      },
    });
    const guard = await run(policy({ checks: ["moderation"], action: "block" }), chat("Hello", "Something vile"));
    expect(moderated.at(-1)!.body).toEqual({ model: "omni-moderation-latest", input: ["Hello", "Something vile"] });
    expect(moderated.at(-1)!.headers.authorization).toBe("Bearer sk-moderation");
    expect(guard.decisions).toEqual([
      {
        policy: "remote",
        check: "moderation",
        action: "block",
        stage: "prompt",
        found: { hate: 1, violence: 1 },
        score: 0.91,
      },
    ]);
    expect(guard.refusal).toBe(
      'guardrails: the prompt was flagged by the moderation check (hate, violence; score 0.91), which the policy "remote" does not let through',
    );
    expect(guard.refusalStatus).toBeUndefined();
  });

  it("reads scores against a threshold, only for the categories a policy names, and flags under redact", async () => {
    moderationAnswer = () => ({
      status: 200,
      body: { results: [result({ harassment: 0.4, violence: 0.95 }, ["violence"])] },
    });
    const spec = { checks: ["moderation"], action: "redact" };
    const watching = policy({
      ...spec,
      moderation: { categories: ["harassment", "hate"], threshold: 0.3, model: "omni-moderation-2024-09-26" },
    });
    const guard = await run(watching, chat("Rude words"));
    expect(moderated.at(-1)!.body.model).toBe("omni-moderation-2024-09-26");
    expect(guard.decisions).toEqual([
      { policy: "remote", check: "moderation", action: "flag", stage: "prompt", found: { harassment: 1 }, score: 0.4 },
    ]);
    expect(guard.refusal).toBeUndefined();
    const quiet = await run(policy({ ...spec, moderation: { categories: ["hate"], threshold: 0.3 } }), chat("Rude"));
    expect(quiet.decisions).toEqual([]);
  });

  it("refuses with 503 when moderation does not answer, logging why", async () => {
    moderationAnswer = () => ({ status: 500, body: { error: "down" } });
    const guard = await run(policy({ checks: ["moderation"], action: "flag" }), chat("Hello"));
    expect(guard.decisions).toEqual([
      { policy: "remote", check: "moderation", action: "block", stage: "prompt", found: { error: 1 } },
    ]);
    expect(guard.refusalStatus).toBe(503);
    expect(guard.refusal).toBe(
      'guardrails: the moderation check did not answer usably (status 500), and the policy "remote" does not let a call through unchecked',
    );
    expect(warnings.at(-1)).toMatchObject({ check: "moderation", requestId: "req-1" });
  });

  it("posts the webhook its request, with the operator's headers, and blocks on its refusal", async () => {
    webhookAnswer = () => ({ status: 200, body: { allow: false, reason: "off-topic for this app", score: 0.8 } });
    const guarded = policy({
      checks: ["webhook"],
      action: "block",
      webhook: { url: hookUrl(), headers: { authorization: "Bearer hook-secret" } },
    });
    const guard = await run(guarded, chat("Tell me about the war"));
    expect(hooked.at(-1)!.body).toEqual({
      policy: "remote",
      stage: "prompt",
      texts: ["Tell me about the war"],
      key_id: "key-1",
      request_id: "req-1",
    });
    expect(hooked.at(-1)!.headers).toMatchObject({
      authorization: "Bearer hook-secret",
      "content-type": "application/json",
    });
    expect(guard.decisions).toEqual([
      { policy: "remote", check: "webhook", action: "block", stage: "prompt", found: { denied: 1 }, score: 0.8 },
    ]);
    expect(guard.refusal).toBe(
      'guardrails: the webhook check did not allow the prompt (off-topic for this app), which the policy "remote" does not let through',
    );
    webhookAnswer = () => ({ status: 200, body: { allow: true, note: "fields it does not know are ignored" } });
    expect((await run(guarded, chat("Hello"))).decisions).toEqual([]);
  });

  it("fails closed or open on a webhook that never answers, a bad answer or a non-2xx", async () => {
    // 200 ms only where the webhook never answers; one that answers badly gets all the time a busy machine needs.
    const hook = (on_error: string, timeout_ms = 30_000) =>
      policy({ checks: ["webhook"], action: "block", webhook: { url: hookUrl(), timeout_ms, on_error } });
    webhookAnswer = () => "hang";
    const closed = await run(hook("closed", 200), chat("Hello"));
    expect(closed.refusalStatus).toBe(503);
    expect(closed.refusal).toBe(
      'guardrails: the webhook check did not answer usably (no answer within 200 ms), and the policy "remote" does not let a call through unchecked',
    );
    const open = await run(hook("open", 200), chat("Hello"));
    expect(open.refusal).toBeUndefined();
    expect(open.decisions).toEqual([
      { policy: "remote", check: "webhook", action: "flag", stage: "prompt", found: { error: 1 } },
    ]);
    webhookAnswer = () => ({ status: 200, body: "not json" });
    expect((await run(hook("closed"), chat("Hello"))).refusal).toMatch(/\(an answer that is not JSON\)/);
    webhookAnswer = () => ({ status: 200, body: { allowed: true } });
    expect((await run(hook("closed"), chat("Hello"))).refusal).toMatch(/\(an answer that is not \{allow/);
    webhookAnswer = () => ({ status: 502, body: { allow: true } });
    expect((await run(hook("closed"), chat("Hello"))).refusal).toMatch(/\(status 502\)/);
  });

  it("never reaches a webhook on a private address unless the address policy exempts it", async () => {
    const before = hooked.length;
    const guarded = policy({ checks: ["webhook"], action: "block", webhook: { url: hookUrl() } });
    const guard = await run(guarded, chat("Hello"), context(false));
    expect(guard.refusal).toMatch(/\(its address is refused by the outbound address policy\)/);
    expect(hooked.length).toBe(before);
    expect(warnings.at(-1)!.err).toMatch(/loopback address/);
  });

  it("asks moderation and the webhook at once: each answers only once both have been asked", async () => {
    let release!: () => void;
    const both = new Promise<Answer>((resolve) => {
      let asked = 0;
      release = () => {
        if (++asked === 2) resolve({ status: 200, body: { results: [result({})] } });
      };
    });
    moderationAnswer = () => {
      release();
      return both;
    };
    webhookAnswer = async () => {
      release();
      await both;
      return { status: 200, body: { allow: true } };
    };
    const guarded = policy({
      checks: ["moderation", "webhook"],
      action: "block",
      webhook: { url: hookUrl(), timeout_ms: 30_000 },
    });
    const guard = await run(guarded, chat("Hello"));
    expect(guard).toMatchObject({ decisions: [] });
    expect(guard.refusal).toBeUndefined();
  });

  it("sends the texts as the local checks left them: redacted", async () => {
    webhookAnswer = () => ({ status: 200, body: { allow: true } });
    const redacting = policy({ checks: ["pii", "webhook"], action: "redact", webhook: { url: hookUrl() } });
    const body = chat("Mail bob@example.com");
    const guard = await run(redacting, body);
    expect(hooked.at(-1)!.body.texts).toEqual(["Mail [EMAIL_1]"]);
    expect(guard.decisions.map((d) => d.check)).toEqual(["pii"]);
  });

  it("is declared in the routing file with what each check needs", () => {
    const parse = (guardrails: object, env?: Record<string, string>) =>
      parseRoutingConfig(JSON.stringify({ deployments: [], guardrails }), "gateway.config.json", env);
    const hooked = parse({
      h: { checks: ["webhook"], action: "flag", webhook: { url: "https://guard.example.com/v1" } },
    });
    expect(hooked.guardrails.get("h")).toMatchObject({
      remote: true,
      webhook: { url: "https://guard.example.com/v1", timeout_ms: 2000, on_error: "closed" },
    });
    expect(parse({ l: { checks: ["pii"], action: "flag" } }).guardrails.get("l")!.remote).toBe(false);
    expect(() => parse({ h: { checks: ["webhook"], action: "flag" } })).toThrow(/the webhook check needs webhook.url/);
    expect(() =>
      parse({
        h: { checks: ["webhook"], action: "flag", webhook: { url: "http://guard.example.com", timeout_ms: 60_000 } },
      }),
    ).toThrow(/webhook.url: an https URL[\s\S]*webhook.timeout_ms/);
    expect(() =>
      parse({
        h: {
          checks: ["webhook"],
          action: "flag",
          webhook: { url: "https://guard.example.com", headers: { Host: "x" } },
        },
      }),
    ).toThrow(/a header the gateway sets itself/);
    expect(() =>
      parse({ m: { checks: ["moderation"], action: "block", moderation: { categories: ["rudeness"] } } }),
    ).toThrow(/moderation.categories\[0\]: one of harassment/);
    expect(() => parse({ m: { checks: ["moderation"], action: "block" } }, {})).toThrow(
      /guardrails.m.checks: the moderation check needs OPENAI_API_KEY/,
    );
    expect(
      parse({ m: { checks: ["moderation"], action: "block" } }, { OPENAI_API_KEY: "sk" }).guardrails.get("m"),
    ).toMatchObject({
      moderation: { model: "omni-moderation-latest" },
    });
  });
});
