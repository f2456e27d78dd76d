import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../errors.ts";
import { CallStop } from "../upstream/call-stop.ts";
import { completeChat } from "./chat.ts";

// A loopback provider speaking Chat Completions: it keeps what it was sent and answers what `next` says.
let server: http.Server;
let next: { status: number; body: unknown } = { status: 200, body: {} };
const received: Array<{ path: string; auth: string | undefined; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      received.push({ path: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(text) });
      res.writeHead(next.status, { "content-type": "application/json" });
      res.end(typeof next.body === "string" ? next.body : JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.UPSTREAM_XAI_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.XAI_API_KEY = "test-key";
});
afterAll(() => {
  delete process.env.UPSTREAM_XAI_URL;
  server.close();
});

const chat = {
  provider: "xai",
  model: "grok-4",
  messages: [
    { role: "system" as const, content: "Be brief." },
    { role: "user" as const, content: "Hi" },
  ],
  max_tokens: 20,
  temperature: 0.5,
};
const call = () => completeChat(chat, new CallStop(5_000));

describe("completeChat on a provider speaking OpenAI's wire", () => {
  it("sends the chat as one Chat Completions request, not streamed, and reads text, model and usage", async () => {
    next = {
      status: 200,
      body: {
        model: "grok-4-0709",
        choices: [{ index: 0, message: { role: "assistant", content: "Hello there." }, finish_reason: "stop" }],
        usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      },
    };
    expect(await call()).toEqual({
      content: "Hello there.",
      model: "grok-4-0709",
      provider: "xai",
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
    const sent = received.at(-1)!;
    expect(sent.path).toMatch(/\/chat\/completions$/);
    expect(sent.auth).toBe("Bearer test-key");
    expect(sent.body).toEqual({
      model: "grok-4",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      max_tokens: 20,
      temperature: 0.5,
    });
  });

  it("reads text parts and a refusal, and names the requested model when the answer does not", async () => {
    next = {
      status: 200,
      body: {
        choices: [
          {
            message: {
              content: [
                { type: "thinking", thinking: "hidden" },
                { type: "text", text: "Part one, " },
                { type: "text", text: "part two." },
              ],
              refusal: " (declined the rest)",
            },
          },
        ],
      },
    };
    expect(await call()).toEqual({
      content: "Part one, part two. (declined the rest)",
      model: "grok-4",
      provider: "xai",
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });

  it("answers a refusal as the gateway error its status means, with the provider's own message", async () => {
    next = { status: 400, body: { error: { message: "max_tokens is too large" } } };
    const refused = await call().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, message: "xai refused the request (400): max_tokens is too large" });
    next = { status: 429, body: { error: { message: "slow down" } } };
    await expect(call()).rejects.toMatchObject({
      status: 503,
      message: "xai is rate limiting the gateway; try again later",
    });
  });

  it("answers a 502 for an answer that is not JSON or has no message", async () => {
    next = { status: 200, body: "<html>gateway timeout</html>" };
    await expect(call()).rejects.toMatchObject({ status: 502 });
    next = { status: 200, body: { choices: [] } };
    await expect(call()).rejects.toMatchObject({ status: 502, message: "xai answered without a message" });
  });
});
