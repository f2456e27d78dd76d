// A kept model call (REQUEST_LOG_BODIES) read as a conversation for the request's page: the messages as
// sent, in the form of whichever surface took them (the gateway's, OpenAI's chat and responses,
// Anthropic's messages), and the answer's text, whole or gathered from a stream's events. Bodies cut at
// the cap, or of a form not known here, are shown as they were kept: the page never guesses.
import type { RequestBodies } from "../../usage/body-capture.ts";

export type Turn = { role: string; text: string };

export type Conversation = {
  /** The messages sent, in order (system first when the surface keeps it apart); empty when not readable. */
  turns: Turn[];
  /** The answer's text; null when the answer holds none (an error) or is not readable. */
  answer: string | null;
  /** The request, pretty-printed when it is whole JSON, else as kept. */
  request: string;
  /** The answer as kept: pretty-printed JSON, or a stream's events; null when none was kept. */
  response: string | null;
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A message's content as text: a string, or the text of its parts, with other parts named. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => {
      if (typeof part === "string") return part;
      if (!isObject(part)) return "";
      for (const field of ["text", "input_text", "output_text"] as const)
        if (typeof part[field] === "string") return part[field];
      return typeof part.type === "string" ? `[${part.type}]` : "";
    })
    .filter(Boolean)
    .join("\n");
}

/** The turns of a request body of any of the surfaces. */
function turnsOf(body: unknown): Turn[] {
  if (!isObject(body)) return [];
  const turns: Turn[] = [];
  const system = body.system ?? body.instructions;
  if (system !== undefined && textOf(system)) turns.push({ role: "system", text: textOf(system) });
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : undefined;
  if (list)
    for (const m of list)
      if (isObject(m)) turns.push({ role: typeof m.role === "string" ? m.role : "message", text: textOf(m.content) });
  if (typeof body.input === "string") turns.push({ role: "user", text: body.input });
  if (typeof body.prompt === "string") turns.push({ role: "user", text: body.prompt });
  return turns;
}

/** The text of a whole answer of any of the surfaces. */
function answerOf(body: unknown): string | null {
  if (!isObject(body)) return null;
  if (typeof body.content === "string") return body.content;
  if (Array.isArray(body.content)) return textOf(body.content);
  if (Array.isArray(body.choices)) {
    const first = body.choices[0] as Json | undefined;
    const message = isObject(first?.message) ? first.message : undefined;
    if (message) return textOf(message.content);
    if (typeof first?.text === "string") return first.text;
  }
  if (typeof body.output_text === "string") return body.output_text;
  if (Array.isArray(body.output))
    return body.output
      .filter(isObject)
      .map((item) => textOf(item.content))
      .filter(Boolean)
      .join("\n");
  return null;
}

/** The text a stream's events carried, one delta at a time; null when none of them is a known delta. */
function streamedAnswer(events: string): string | null {
  let text = "";
  let deltas = 0;
  for (const line of events.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const event = parse(line.slice(5).trim());
    if (!isObject(event)) continue;
    const delta = deltaOf(event);
    if (delta !== undefined) {
      text += delta;
      deltas++;
    }
  }
  return deltas > 0 ? text : null;
}

function deltaOf(event: Json): string | undefined {
  // The gateway's own: {content}.
  if (typeof event.content === "string") return event.content;
  // OpenAI's chat: choices[0].delta.content.
  if (Array.isArray(event.choices)) {
    const delta = (event.choices[0] as Json | undefined)?.delta;
    return isObject(delta) && typeof delta.content === "string" ? delta.content : undefined;
  }
  // Anthropic's content_block_delta and OpenAI's response.output_text.delta.
  if (isObject(event.delta) && typeof event.delta.text === "string") return event.delta.text;
  if (event.type === "response.output_text.delta" && typeof event.delta === "string") return event.delta;
  return undefined;
}

/** The kept bodies as the request's page shows them. */
export function conversationOf(bodies: RequestBodies): Conversation {
  const request = parse(bodies.request);
  const response = bodies.response === null ? undefined : parse(bodies.response);
  const isStream = bodies.response !== null && response === undefined && /^(event|data):/m.test(bodies.response);
  return {
    turns: turnsOf(request),
    answer: bodies.response === null ? null : isStream ? streamedAnswer(bodies.response) : answerOf(response),
    request: request === undefined ? bodies.request : JSON.stringify(request, null, 2),
    response:
      bodies.response === null ? null : response === undefined ? bodies.response : JSON.stringify(response, null, 2),
  };
}
