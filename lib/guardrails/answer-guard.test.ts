import { describe, expect, it } from "vitest";
import { guardAnswer, maskAnswer, findInAnswer } from "./answer-guard.ts";
import { guardrailPolicySchema, toPolicy } from "./policy.ts";

const policy = (spec: object) => toPolicy("p", guardrailPolicySchema.parse(spec));
const chat = (content: string) =>
  JSON.stringify({
    id: "c1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 3, completion_tokens: 5 },
  });
const PERSON = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer" } },
  required: ["name"],
};

describe("a whole answer under a policy's answer stage", () => {
  it("blocks personal data the model wrote, saying what kind, never the value", () => {
    const guard = guardAnswer(
      policy({ checks: ["pii"], action: "block", stages: ["answer"] }),
      chat("Ask ann@example.com."),
    );
    expect(guard.decisions).toEqual([
      { policy: "p", check: "pii", action: "block", stage: "answer", found: { email: 1 } },
    ]);
    expect(guard.refusal).toBe(
      'guardrails: the answer holds personal data (email), which the policy "p" does not let through',
    );
    expect(guard.body).toBeUndefined();
  });

  it("masks what it finds under redact, leaving the prompt's placeholders to be put back", () => {
    const mask = policy({
      checks: ["pii", "words"],
      action: "redact",
      stages: ["prompt", "answer"],
      words: { terms: ["Project Falcon"] },
    });
    const guard = guardAnswer(mask, chat("[EMAIL_1] wrote to ann@example.com about Project Falcon."));
    const body = JSON.parse(guard.body!) as { choices: Array<{ message: { content: string } }>; usage: object };
    expect(body.choices[0]!.message.content).toBe("[EMAIL_1] wrote to [REDACTED_EMAIL] about [REDACTED].");
    expect(body.usage).toEqual({ prompt_tokens: 3, completion_tokens: 5 });
    expect(guard.decisions.map((d) => [d.check, d.action, d.found])).toEqual([
      ["pii", "redact", { email: 1 }],
      ["words", "redact", { term: 1 }],
    ]);
    expect(guard.refusal).toBeUndefined();
  });

  it("reads each surface's texts: Anthropic's text blocks, Responses' output_text parts, the gateway's own content", () => {
    const mask = policy({ checks: ["pii"], action: "redact", stages: ["answer"] });
    const anthropic = guardAnswer(
      mask,
      JSON.stringify({
        type: "message",
        content: [
          { type: "text", text: "Card 4111 1111 1111 1111" },
          { type: "tool_use", id: "t", name: "x", input: { to: "ann@example.com" } },
        ],
      }),
    );
    expect(JSON.parse(anthropic.body!).content).toEqual([
      { type: "text", text: "Card [REDACTED_CARD]" },
      { type: "tool_use", id: "t", name: "x", input: { to: "ann@example.com" } },
    ]);
    const responses = guardAnswer(
      mask,
      JSON.stringify({
        object: "response",
        output: [{ type: "message", content: [{ type: "output_text", text: "Mail ann@example.com" }] }],
        output_text: "Mail ann@example.com",
      }),
    );
    expect(responses.body).not.toContain("ann@example.com");
    expect(JSON.parse(responses.body!).output_text).toBe("Mail [REDACTED_EMAIL]");
    const own = guardAnswer(mask, JSON.stringify({ content: "IP 203.0.113.42", provider: "xai", model: "m" }));
    expect(JSON.parse(own.body!).content).toBe("IP [REDACTED_IP]");
  });

  it("leaves pii to the prompt when stages does not list the answer", () => {
    const promptOnly = policy({ checks: ["pii", "json_schema"], action: "block", json_schema: { schema: PERSON } });
    expect(promptOnly.answer).toBe(false);
    expect(guardAnswer(promptOnly, chat('{"name": "ann@example.com"}'))).toEqual({ decisions: [] });
  });

  it("holds a JSON answer to the policy's schema: the reason is where and which rule, never a value", () => {
    const strict = policy({ checks: ["json_schema"], action: "block", json_schema: { schema: PERSON } });
    expect(guardAnswer(strict, chat('{"name": "Ann", "age": 41}'))).toEqual({ decisions: [] });
    const wrong = guardAnswer(strict, chat('{"name": "Ann", "age": "forty-one"}'));
    expect(wrong.decisions).toEqual([
      {
        policy: "p",
        check: "json_schema",
        action: "block",
        stage: "answer",
        found: { schema: 1 },
        reason: "/age type",
      },
    ]);
    expect(wrong.refusal).toBe(
      'guardrails: the answer does not match the policy\'s JSON schema (/age type), which the policy "p" does not let through',
    );
    expect(guardAnswer(strict, chat("Sure! Here it is.")).decisions[0]!.reason).toBe("not JSON");
    // A JSON answer cannot be redacted into a valid one: flagged.
    const lenient = policy({ checks: ["json_schema"], action: "redact", json_schema: { schema: PERSON } });
    expect(guardAnswer(lenient, chat("{}")).decisions[0]).toMatchObject({ action: "flag", reason: "/ required" });
  });

  it("refuses a policy whose schema does not compile, or that lists json_schema without one, naming where", () => {
    const problems = (spec: object) =>
      guardrailPolicySchema.safeParse(spec).error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(problems({ checks: ["json_schema"], action: "block" })).toEqual([
      "json_schema: the json_schema check needs json_schema.schema",
    ]);
    expect(problems({ checks: ["json_schema"], action: "block", json_schema: { schema: { type: "strng" } } })).toEqual([
      expect.stringMatching(/^json_schema\.schema: not a JSON schema: schema is invalid: data\/type/),
    ]);
    expect(problems({ checks: ["pii"], action: "block", stages: ["reply"] })).toEqual([
      "stages.0: one of prompt, answer",
    ]);
  });

  it("masks overlapping findings once, the earlier whole", () => {
    const p = policy({ checks: ["pii", "words"], action: "redact", stages: ["answer"], words: { terms: ["ann"] } });
    const text = "to ann@example.com";
    expect(maskAnswer(text, findInAnswer(p, text))).toBe("to [REDACTED_EMAIL]");
  });
});
