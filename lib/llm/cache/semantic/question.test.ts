import { describe, expect, it } from "vitest";
import { MAX_PROMPT_CHARS, semanticQuestion } from "./question.ts";

const rules = { embeddingModel: "openai/text-embedding-3-small", tools: false, anyTemperature: false };
const ask = (content: unknown, extra: object = {}) => ({
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content },
  ],
  temperature: 0,
  ...extra,
});

describe("semanticQuestion", () => {
  it("embeds the conversation role by role with whitespace collapsed, text parts joined", () => {
    const q = semanticQuestion(
      "m",
      ask([
        { type: "text", text: "What is\n\nthe  capital" },
        { type: "text", text: "of France?" },
      ]),
      rules,
    );
    expect(q?.prompt).toBe("system: Be brief.\nuser: What is the capital of France?");
  });

  it("puts requests that differ only in their prompt in one partition, and any other difference in another", () => {
    const a = semanticQuestion("m", ask("one", { max_tokens: 50, user: "u1" }), rules)!;
    const b = semanticQuestion("m", ask("two", { max_completion_tokens: 50, user: "u2", stream: true }), rules)!;
    expect(b.partition).toBe(a.partition);
    expect(semanticQuestion("other", ask("one", { max_tokens: 50 }), rules)!.partition).not.toBe(a.partition);
    expect(semanticQuestion("m", ask("one", { max_tokens: 51 }), rules)!.partition).not.toBe(a.partition);
    expect(semanticQuestion("m", ask("one", { max_tokens: 50, seed: 1 }), rules)!.partition).not.toBe(a.partition);
    const otherEmbedder = { ...rules, embeddingModel: "openai/text-embedding-3-large" };
    expect(semanticQuestion("m", ask("one", { max_tokens: 50 }), otherEmbedder)!.partition).not.toBe(a.partition);
  });

  it("matches only temperature 0 without tools, unless the rules allow more", () => {
    expect(semanticQuestion("m", ask("hi", { temperature: undefined }), rules)).toBeUndefined();
    expect(semanticQuestion("m", ask("hi", { temperature: 0.2 }), rules)).toBeUndefined();
    expect(semanticQuestion("m", ask("hi", { temperature: 0.2 }), { ...rules, anyTemperature: true })).toBeDefined();
    const tools = { tools: [{ type: "function", function: { name: "f", parameters: {} } }] };
    expect(semanticQuestion("m", ask("hi", tools), rules)).toBeUndefined();
    expect(semanticQuestion("m", ask("hi", tools), { ...rules, tools: true })).toBeDefined();
    expect(semanticQuestion("m", ask("hi", { n: 2 }), rules)).toBeUndefined();
  });

  it("leaves out what words cannot stand for: images, tool calls and results, a prompt past the limit", () => {
    expect(
      semanticQuestion("m", ask([{ type: "image_url", image_url: { url: "https://x/y.png" } }]), rules),
    ).toBeUndefined();
    const toolTurn = {
      messages: [
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c", content: "42" },
      ],
      temperature: 0,
    };
    expect(semanticQuestion("m", toolTurn, { ...rules, tools: true })).toBeUndefined();
    expect(semanticQuestion("m", ask("x".repeat(MAX_PROMPT_CHARS)), rules)).toBeUndefined();
  });
});
