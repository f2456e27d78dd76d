import { describe, expect, it } from "vitest";
import { cutMarker } from "../../usage/body-capture.ts";
import { conversationOf } from "./conversation.ts";

const json = (v: unknown) => JSON.stringify(v);

describe("a kept model call as a conversation", () => {
  it("reads OpenAI's chat: the messages, parts by their text, and the first choice's answer", () => {
    const c = conversationOf({
      request: json({
        model: "gpt-4.1",
        messages: [
          { role: "system", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: "https://x" } },
            ],
          },
        ],
      }),
      response: json({ choices: [{ message: { role: "assistant", content: "A cat." } }] }),
    });
    expect(c.turns).toEqual([
      { role: "system", text: "Be brief." },
      { role: "user", text: "What is this?\n[image_url]" },
    ]);
    expect(c.answer).toBe("A cat.");
    expect(c.request).toContain('\n  "model": "gpt-4.1"');
  });

  it("reads Anthropic's messages with their system apart, and the responses API's input and output", () => {
    const anthropic = conversationOf({
      request: json({ system: "Terse.", messages: [{ role: "user", content: "Hi" }] }),
      response: json({ content: [{ type: "text", text: "Hello." }] }),
    });
    expect(anthropic.turns).toEqual([
      { role: "system", text: "Terse." },
      { role: "user", text: "Hi" },
    ]);
    expect(anthropic.answer).toBe("Hello.");
    const responses = conversationOf({
      request: json({ instructions: "Kind.", input: "Hi" }),
      response: json({ output: [{ type: "message", content: [{ type: "output_text", text: "Hi there." }] }] }),
    });
    expect(responses.turns).toEqual([
      { role: "system", text: "Kind." },
      { role: "user", text: "Hi" },
    ]);
    expect(responses.answer).toBe("Hi there.");
  });

  it("gathers a stream's answer from its deltas, in each surface's events", () => {
    const request = json({ messages: [{ role: "user", content: "Count" }] });
    const events = (lines: unknown[]) => lines.map((l) => `data: ${json(l)}\n\n`).join("");
    expect(
      conversationOf({ request, response: events([{ content: "one " }, { content: "two" }, { done: true }]) }).answer,
    ).toBe("one two");
    expect(
      conversationOf({
        request,
        response: `${events([{ choices: [{ delta: { content: "a" } }] }, { choices: [{ delta: { content: "b" } }] }])}data: [DONE]\n\n`,
      }).answer,
    ).toBe("ab");
    const anthropic = `event: content_block_delta\n${events([{ type: "content_block_delta", delta: { type: "text_delta", text: "x" } }])}`;
    expect(conversationOf({ request, response: anthropic }).answer).toBe("x");
    const responses = events([{ type: "response.output_text.delta", delta: "y" }]);
    expect(conversationOf({ request, response: responses }).answer).toBe("y");
  });

  it("shows a cut or unknown body as it was kept, and an error's answer as none", () => {
    const cut = `{"messages":[{"role":"user","content":"lo${cutMarker(90_000)}`;
    const c = conversationOf({ request: cut, response: json({ error: { message: "bad" } }) });
    expect(c.turns).toEqual([]);
    expect(c.request).toBe(cut);
    expect(c.answer).toBeNull();
    expect(c.response).toContain('"message": "bad"');
    expect(conversationOf({ request: "{}", response: null })).toMatchObject({ answer: null, response: null });
  });
});
