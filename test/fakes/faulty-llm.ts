import http from "node:http";
import { listen, type Listening } from "../support/listen.ts";

/**
 * How the faulty provider answers a call, named by the first segment of its path (`/<mode>/v1/...`):
 * - `ok`: a whole or streamed answer, as its wire gives one;
 * - `500`, `529`, `400`: that status with the wire's error body; `429` with `Retry-After`; any other
 *   status named in the path (`/502/...`) is answered the same way;
 * - `hang`: reads the request and never answers;
 * - `reset`: closes the connection without an answer;
 * - `reset-before-event`: a 200 and its headers, then the connection closed before any event or byte;
 * - `reset-after-event`: a 200 and the first events of a stream (the start of a whole body), then closed;
 * - `flaky`: `ok` half the time, else one of `500`, `429` and `reset` at random.
 */
export const FAULT_MODES = [
  "ok",
  "500",
  "429",
  "529",
  "400",
  "hang",
  "reset",
  "reset-before-event",
  "reset-after-event",
  "flaky",
] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

export type FaultyProvider = Listening & {
  /** Calls received, by the mode they were answered with (a flaky call under the mode it drew). */
  hits: Map<string, number>;
  /** When each call arrived (ms, performance.now), by the path's mode. */
  arrivals: Map<string, number[]>;
  /** Calls answered in full (`ok`, or a flaky call that drew it). */
  answered(): number;
};

/** The text every answer of the faulty provider carries, and the start of what a reset cuts short. */
export const FAULTY_REPLY = "Faulty provider answered.";
export const PARTIAL_REPLY = "Faulty ";
const USAGE = { prompt: 7, completion: 3 };

type Wire = "openai" | "anthropic";

/**
 * A provider speaking OpenAI's chat wire (`/<mode>/v1/chat/completions`) and Anthropic's
 * (`/<mode>/v1/messages`) that fails as its path says: each deployment of a routing file points its
 * origin at `<url>/<mode>`. The failing modes answer any endpoint (`/<mode>/v1/embeddings` gets
 * OpenAI's error body); only `ok` and the mid-answer resets need a chat or messages call.
 * `retryAfter` is the 429's Retry-After (seconds).
 */
export async function startFaultyProvider(options: { retryAfter?: string } = {}): Promise<FaultyProvider> {
  const hits = new Map<string, number>();
  const arrivals = new Map<string, number[]>();
  let answered = 0;
  const count = (mode: string) => hits.set(mode, (hits.get(mode) ?? 0) + 1);

  const server = http.createServer((req, res) => {
    const [, pathMode = "", ...rest] = req.url!.split("/");
    const wire: Wire = rest.join("/").endsWith("messages") ? "anthropic" : "openai";
    const arrived = arrivals.get(pathMode) ?? [];
    arrived.push(performance.now());
    arrivals.set(pathMode, arrived);
    const mode = pathMode === "flaky" ? drawFlaky() : pathMode;
    count(mode);
    if (mode === "reset") {
      req.resume();
      req.socket.destroy();
      return;
    }
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      // A failing mode answers whatever was sent, a body or none.
      const body = (text ? JSON.parse(text) : {}) as { model?: string; stream?: boolean };
      const model = body.model ?? "";
      const stream = body.stream === true;
      if (mode === "hang") return;
      if (mode === "reset-before-event") {
        res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
        res.flushHeaders();
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      if (mode === "reset-after-event") {
        res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
        res.write(stream ? firstEvents(wire, model) : '{"id":"cut-short","choices":[');
        // Long enough for the gateway to pass the first events on before the connection goes.
        setTimeout(() => req.socket.destroy(), 50);
        return;
      }
      if (mode === "ok") {
        answer(res, wire, model, stream);
        answered++;
        return;
      }
      const status = Number(mode);
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (status === 429) headers["retry-after"] = options.retryAfter ?? "0";
      res.writeHead(status, headers);
      const message = `failing with ${status} as asked`;
      res.end(
        JSON.stringify(
          wire === "anthropic"
            ? { type: "error", error: { type: status === 400 ? "invalid_request_error" : "api_error", message } }
            : { error: { message, type: "test" } },
        ),
      );
    });
  });
  const listening = await listen(server);
  return Object.assign(listening, { hits, arrivals, answered: () => answered });
}

function drawFlaky(): FaultMode {
  if (Math.random() < 0.5) return "ok";
  return (["500", "429", "reset"] as const)[Math.floor(Math.random() * 3)]!;
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

const chunk = (model: string, delta: Record<string, unknown>, finish: string | null = null) =>
  sse({
    id: "chatcmpl-faulty",
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

/** A stream's first events: its start and the first words. */
function firstEvents(wire: Wire, model: string): string {
  if (wire === "openai")
    return chunk(model, { role: "assistant", content: "" }) + chunk(model, { content: PARTIAL_REPLY });
  return (
    sse(
      {
        type: "message_start",
        message: {
          id: "msg_faulty",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          usage: { input_tokens: USAGE.prompt, output_tokens: 1 },
        },
      },
      "message_start",
    ) +
    sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start") +
    sse(
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: PARTIAL_REPLY } },
      "content_block_delta",
    )
  );
}

function answer(res: http.ServerResponse, wire: Wire, model: string, stream: boolean): void {
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify(
        wire === "openai"
          ? {
              id: "chatcmpl-faulty",
              object: "chat.completion",
              created: 1_760_000_000,
              model,
              choices: [{ index: 0, message: { role: "assistant", content: FAULTY_REPLY }, finish_reason: "stop" }],
              usage: {
                prompt_tokens: USAGE.prompt,
                completion_tokens: USAGE.completion,
                total_tokens: USAGE.prompt + USAGE.completion,
              },
            }
          : {
              id: "msg_faulty",
              type: "message",
              role: "assistant",
              model,
              content: [{ type: "text", text: FAULTY_REPLY }],
              stop_reason: "end_turn",
              stop_sequence: null,
              usage: { input_tokens: USAGE.prompt, output_tokens: USAGE.completion },
            },
      ),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const rest = FAULTY_REPLY.slice(PARTIAL_REPLY.length);
  if (wire === "openai") {
    res.end(
      firstEvents(wire, model) +
        chunk(model, { content: rest }) +
        chunk(model, {}, "stop") +
        sse({
          id: "chatcmpl-faulty",
          object: "chat.completion.chunk",
          created: 1_760_000_000,
          model,
          choices: [],
          usage: {
            prompt_tokens: USAGE.prompt,
            completion_tokens: USAGE.completion,
            total_tokens: USAGE.prompt + USAGE.completion,
          },
        }) +
        "data: [DONE]\n\n",
    );
    return;
  }
  res.end(
    firstEvents(wire, model) +
      sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: rest } }, "content_block_delta") +
      sse({ type: "content_block_stop", index: 0 }, "content_block_stop") +
      sse(
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: USAGE.completion },
        },
        "message_delta",
      ) +
      sse({ type: "message_stop" }, "message_stop"),
  );
}
