import { expect } from "vitest";
import type { TestGateway } from "./gateway.ts";

/** The compatible surfaces a model call comes in by, each in its own wire. */
export type Surface = "chat" | "messages" | "responses";
export const SURFACES: readonly Surface[] = ["chat", "messages", "responses"];

const PATHS: Record<Surface, string> = {
  chat: "/v1/chat/completions",
  messages: "/v1/messages",
  responses: "/v1/responses",
};

/** One model call on a surface, whole or streamed, under an X-Request-Id to find its usage row by. */
export function ask(
  gw: TestGateway,
  key: string,
  surface: Surface,
  model: string,
  stream: boolean,
  requestId: string,
): Promise<Response> {
  const messages = [{ role: "user", content: "route me" }];
  const body =
    surface === "chat"
      ? { model, stream, messages }
      : surface === "messages"
        ? { model, stream, max_tokens: 50, messages }
        : { model, stream, input: "route me", store: false };
  return gw.request(PATHS[surface], {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-request-id": requestId },
    body: JSON.stringify(body),
  });
}

type SseEvent = { event?: string; data: Record<string, unknown> };

/** A stream's events with their data as JSON (OpenAI's closing [DONE] left out). */
function events(text: string): SseEvent[] {
  const out: SseEvent[] = [];
  for (const block of text.split("\n\n")) {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (data === undefined || data === "[DONE]") continue;
    out.push({ ...(event !== undefined && { event }), data: JSON.parse(data) as Record<string, unknown> });
  }
  return out;
}

/** An answer's text, and the surface's error event when a stream ended with one. */
export type Answer = { text: string; errorEvent?: string };

/** The text of a 200 answer, whole or streamed, in the surface's shape, and the stream's error event if it had one. */
export async function readAnswer(res: Response, surface: Surface, stream: boolean): Promise<Answer> {
  if (!stream) {
    const json = (await res.json()) as {
      choices?: { message: { content: string } }[];
      content?: { text: string }[];
      output?: { content?: { text?: string }[] }[];
    };
    if (surface === "chat") return { text: json.choices![0]!.message.content };
    if (surface === "messages") return { text: json.content![0]!.text };
    return {
      text: json
        .output!.flatMap((o) => o.content ?? [])
        .map((c) => c.text ?? "")
        .join(""),
    };
  }
  expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
  const texts: string[] = [];
  let errorEvent: string | undefined;
  for (const { event, data } of events(await res.text())) {
    if (surface === "chat") {
      if (data.error) errorEvent = JSON.stringify(data.error);
      const choices = data.choices as { delta: { content?: string } }[] | undefined;
      texts.push(choices?.[0]?.delta.content ?? "");
    } else if (surface === "messages") {
      if (event === "error") errorEvent = JSON.stringify(data.error);
      texts.push((data.delta as { text?: string } | undefined)?.text ?? "");
    } else {
      if (data.type === "response.failed") errorEvent = JSON.stringify((data.response as { error: unknown }).error);
      if (data.type === "response.output_text.delta") texts.push(data.delta as string);
    }
  }
  return { text: texts.join(""), ...(errorEvent !== undefined && { errorEvent }) };
}
