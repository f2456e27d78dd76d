import { describe, expect, it } from "vitest";
import type { GuardrailDecision } from "./decision.ts";
import { guardingEvents } from "./answer-stream.ts";
import { guardrailPolicySchema, toPolicy, type GuardrailPolicy } from "./policy.ts";

const policy = (spec: object) => toPolicy("p", guardrailPolicySchema.parse({ stages: ["answer"], ...spec }));

/** Runs `events` (each written as the provider's bytes) through the guard: what the caller reads, what was reported. */
async function through(p: GuardrailPolicy, events: string[]) {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let out = "";
  let closed = 0;
  let cancelled = false;
  const reports: Array<{ decisions: GuardrailDecision[]; refusal?: string }> = [];
  await guardingEvents(
    {
      start(sink) {
        for (const e of events) if (!cancelled) sink.enqueue(encoder.encode(e));
        if (!cancelled) sink.close();
      },
      cancel: () => void (cancelled = true),
    },
    p,
    (decisions, refusal) => reports.push({ decisions, refusal }),
  ).start({ enqueue: (b) => (out += decoder.decode(b)), close: () => void closed++ });
  return { out, reports, cancelled, closed };
}

const chunk = (content: string | undefined, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: "c1", choices: [], usage: { prompt_tokens: 3, completion_tokens: 9 } })}\n\n`;
const DONE = "data: [DONE]\n\n";
const anthropic = (type: string, data: object = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const textDelta = (text: string) => anthropic("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
const responses = (type: string, n: number, data: object = {}) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: n, ...data })}\n\n`;

/** The text the caller reads from OpenAI chunks. */
const chatText = (out: string) =>
  out
    .split("\n")
    .filter((l) => l.startsWith("data: {") && l.includes('"choices"'))
    .map(
      (l) =>
        (JSON.parse(l.slice(6)) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? "",
    )
    .join("");

describe("guardingEvents", () => {
  const block = policy({ checks: ["pii"], action: "block" });

  it("ends an OpenAI stream at the delta that completes personal data, with the error chunk and no [DONE]", async () => {
    const { out, reports, cancelled, closed } = await through(block, [
      chunk("Sure, "),
      chunk("write to ann@exa"),
      chunk("mple.com today"),
      chunk(undefined, "stop"),
      DONE,
    ]);
    expect(chatText(out)).toBe("Sure, write to ann@exa");
    expect(out).not.toContain("mple.com");
    expect(out).not.toContain("[DONE]");
    const message = 'guardrails: the answer holds personal data (email), which the policy "p" does not let through';
    expect(
      out.endsWith(`data: ${JSON.stringify({ error: { message, type: "guardrails", code: "answer_blocked" } })}\n\n`),
    ).toBe(true);
    expect(cancelled).toBe(true);
    expect(closed).toBe(1);
    expect(reports).toEqual([
      {
        decisions: [{ policy: "p", check: "pii", action: "block", stage: "answer", found: { email: 1 } }],
        refusal: message,
      },
    ]);
  });

  it("ends an Anthropic stream with its error event", async () => {
    const { out, cancelled } = await through(block, [
      anthropic("message_start", { message: { id: "m" } }),
      anthropic("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      textDelta("Card "),
      textDelta("4111 1111 1111 1111"),
      anthropic("content_block_stop", { index: 0 }),
      anthropic("message_stop"),
    ]);
    expect(out).not.toContain("4111");
    expect(out).not.toContain("message_stop");
    expect(out).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"invalid_request_error","message":"guardrails: the answer holds personal data \(card\)/,
    );
    expect(cancelled).toBe(true);
  });

  it("ends a Responses stream with a failed response of its own, numbered after the provider's last event", async () => {
    const created = { id: "resp_1", object: "response", status: "in_progress", output: [] };
    const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
    const { out } = await through(block, [
      responses("response.created", 0, { response: created }),
      responses("response.output_text.delta", 1, { ...at, delta: "Call " }),
      responses("response.output_text.delta", 2, { ...at, delta: "+44 20 7946 0958" }),
      responses("response.completed", 3, { response: { ...created, status: "completed" } }),
    ]);
    expect(out).not.toContain("7946");
    const failed = out.split("\n\n").at(-2)!;
    expect(failed.split("\n")[0]).toBe("event: response.failed");
    expect(JSON.parse(failed.split("\n")[1]!.slice(6))).toEqual({
      type: "response.failed",
      sequence_number: 3,
      response: {
        id: "resp_1",
        object: "response",
        status: "failed",
        output: [],
        output_text: "",
        incomplete_details: null,
        error: {
          code: "answer_blocked",
          message: 'guardrails: the answer holds personal data (phone), which the policy "p" does not let through',
        },
      },
    });
  });

  it("ends the gateway's own stream as it reports a failure part way", async () => {
    const { out } = await through(block, [
      `data: {"content":"Key: "}\n\n`,
      `data: {"content":"sk-proj-abcdefghijklmnopqrstuvwx1234"}\n\n`,
      `data: {"done":true}\n\n`,
    ]);
    expect(out).toBe(
      `data: {"content":"Key: "}\n\ndata: ${JSON.stringify({ error: 'guardrails: the answer holds personal data (secret), which the policy "p" does not let through', done: true })}\n\n`,
    );
  });

  it("masks personal data a provider split over deltas before any of it goes out, under redact", async () => {
    const filler = "This line is long enough to push the held text past the window. ";
    const { out, reports } = await through(policy({ checks: ["pii"], action: "redact" }), [
      chunk("Write to ann@exa"),
      chunk("mple.com. "),
      chunk(filler),
      chunk(filler),
      chunk("Or call +44 20 "),
      chunk("7946 0958"),
      chunk(undefined, "stop"),
      usage,
      DONE,
    ]);
    expect(chatText(out)).toBe(`Write to [REDACTED_EMAIL]. ${filler}${filler}Or call [REDACTED_PHONE]`);
    expect(out).toContain("[DONE]");
    for (const part of ["ann@", "exa", "7946"]) expect(out).not.toContain(part);
    expect(reports).toEqual([
      { decisions: [{ policy: "p", check: "pii", action: "redact", stage: "answer", found: { email: 1, phone: 1 } }] },
    ]);
  });

  it("releases all it holds with a chunk that carries both the last words and the finish reason", async () => {
    const { out, reports } = await through(policy({ checks: ["pii"], action: "redact" }), [
      chunk("Mail ann@example.com", "stop"),
      usage,
      DONE,
    ]);
    expect(chatText(out)).toBe("Mail [REDACTED_EMAIL]");
    expect(out.match(/"finish_reason":"stop"/g)).toHaveLength(1);
    expect(reports).toHaveLength(1);
  });

  it("masks the Responses events that repeat the whole text under redact", async () => {
    const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
    const { out } = await through(policy({ checks: ["pii"], action: "redact" }), [
      responses("response.output_text.delta", 1, { ...at, delta: "Mail ann@example.com" }),
      responses("response.output_text.done", 2, { ...at, text: "Mail ann@example.com" }),
      responses("response.completed", 3, {
        response: { output: [{ content: [{ type: "output_text", text: "Mail ann@example.com" }] }] },
      }),
    ]);
    expect(out).not.toContain("ann@example.com");
    expect(out.match(/\[REDACTED_EMAIL\]/g)).toHaveLength(3);
  });

  it("flags without changing a byte, counting the whole text once as the answer ends", async () => {
    const events = [chunk("ann@example.com and "), chunk("bob@example.com"), chunk(undefined, "stop"), DONE];
    const { out, reports } = await through(policy({ checks: ["pii"], action: "flag" }), events);
    expect(out).toBe(events.join(""));
    expect(reports).toEqual([
      { decisions: [{ policy: "p", check: "pii", action: "flag", stage: "answer", found: { email: 2 } }] },
    ]);
  });

  it("checks a JSON answer against the schema as it ends: the error event in place of the last ones", async () => {
    const schema = { type: "object", required: ["name"] };
    const strict = policy({ checks: ["json_schema"], action: "block", json_schema: { schema } });
    const good = await through(strict, [chunk('{"name":'), chunk('"Ann"}'), chunk(undefined, "stop"), usage, DONE]);
    expect(good.out).toContain("[DONE]");
    expect(good.reports).toEqual([]);
    const bad = await through(strict, [chunk('{"nom":'), chunk('"Ann"}'), chunk(undefined, "stop"), usage, DONE]);
    expect(chatText(bad.out)).toBe('{"nom":"Ann"}');
    expect(bad.out).not.toContain("[DONE]");
    expect(bad.out).not.toContain("completion_tokens");
    expect(bad.out).toContain(`"message":"guardrails: the answer does not match the policy's JSON schema (/ required)`);
    // The provider finishes its answer (and reports its usage): it is not stopped.
    expect(bad.cancelled).toBe(false);
    expect(bad.closed).toBe(1);
    expect(bad.reports[0]!.decisions).toEqual([
      {
        policy: "p",
        check: "json_schema",
        action: "block",
        stage: "answer",
        found: { schema: 1 },
        reason: "/ required",
      },
    ]);
  });

  it("finds a value split over deltas far into a long answer, checking a window of the text with each delta", async () => {
    const words = Array.from({ length: 5_000 }, (_, i) => chunk(`word${i} `));
    const { out, cancelled } = await through(block, [...words, chunk("ann@exa"), chunk("mple.com"), DONE]);
    expect(chatText(out).endsWith("word4999 ann@exa")).toBe(true);
    expect(out).not.toContain("mple.com");
    expect(cancelled).toBe(true);
  });
});
