import { describe, expect, it } from "vitest";
import { cappedJson, CONTENT_CAP_BYTES, genAiMessage, inputAttributes, outputAttributes } from "./genai-content.ts";

const parse = (value: unknown) => JSON.parse(String(value)) as unknown;

describe("prompt and completion as the GenAI conventions' messages", () => {
  it("write a Chat Completions conversation as roles and typed parts, tool calls and results included", () => {
    const attributes = inputAttributes([
      { role: "developer", content: "Answer in French." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is in " },
          { type: "image_url", image_url: { url: "data:..." } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "rainy" },
    ]);
    expect(parse(attributes["gen_ai.input.messages"])).toEqual([
      { role: "system", parts: [{ type: "text", content: "Answer in French." }] },
      { role: "user", parts: [{ type: "text", content: "What is in " }, { type: "image_url" }] },
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_1", name: "weather", arguments: '{"city":"Paris"}' }],
      },
      { role: "tool", parts: [{ type: "tool_call_response", id: "call_1", response: "rainy" }] },
    ]);
    expect(attributes["gen_ai.system_instructions"]).toBeUndefined();
  });

  it("write an Anthropic conversation's blocks, and its separate system prompt as instructions", () => {
    const attributes = inputAttributes(
      [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "use the tool" },
            { type: "tool_use", id: "tu_1", name: "weather", input: { city: "Oslo" } },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "tu_1", content: [{ type: "text", text: "snow" }] }],
        },
      ],
      [{ type: "text", text: "Be brief." }],
    );
    expect(parse(attributes["gen_ai.input.messages"])).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather?" }] },
      {
        role: "assistant",
        parts: [
          { type: "reasoning", content: "use the tool" },
          { type: "tool_call", id: "tu_1", name: "weather", arguments: { city: "Oslo" } },
        ],
      },
      { role: "user", parts: [{ type: "tool_call_response", id: "tu_1", response: "snow" }] },
    ]);
    expect(parse(attributes["gen_ai.system_instructions"])).toEqual([{ type: "text", content: "Be brief." }]);
  });

  it("write an answer with its finish reason", () => {
    const answer = genAiMessage({ role: "assistant", content: "Bonjour" }, "stop");
    expect(parse(outputAttributes([answer])["gen_ai.output.messages"])).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "Bonjour" }], finish_reason: "stop" },
    ]);
  });
});

describe("the content cap", () => {
  const bytes = (text: string) => Buffer.byteLength(text);
  const message = (text: string) => genAiMessage({ role: "user", content: text });

  it("keeps what fits whole", () => {
    const messages = [message("a"), message("b")];
    expect(cappedJson(messages)).toBe(JSON.stringify(messages));
  });

  it("keeps the newest messages, cutting the text of the one that crosses the cap", () => {
    const json = cappedJson([message("old ".repeat(5_000)), message("middle ".repeat(1_000)), message("newest")]);
    expect(bytes(json)).toBeLessThanOrEqual(CONTENT_CAP_BYTES);
    const kept = JSON.parse(json) as Array<{ parts: Array<{ content: string }> }>;
    expect(kept.map((m) => m.parts[0]!.content.slice(0, 6))).toEqual(["old ol", "middle", "newest"]);
    expect(kept[0]!.parts[0]!.content.endsWith("…")).toBe(true);
  });

  it("stays under the cap when escapes and characters of several bytes fill the text", () => {
    for (const text of ['"\n'.repeat(20_000), "€😀".repeat(20_000)]) {
      const json = cappedJson([message(text)]);
      expect(bytes(json)).toBeLessThanOrEqual(CONTENT_CAP_BYTES);
      expect(bytes(json)).toBeGreaterThan(CONTENT_CAP_BYTES - 100);
      // Never half a character: the JSON reads back as the text's own start.
      const content = (JSON.parse(json) as Array<{ parts: Array<{ content: string }> }>)[0]!.parts[0]!.content;
      expect(text.startsWith(content.slice(0, -1))).toBe(true);
    }
  });
});
