import http from "node:http";
import https from "node:https";
import type net from "node:net";
import { listen, type Listening } from "../support/listen.ts";

type Received = { path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> };
export type FakeRemote = Listening<net.Server> & { requests: Received[] };

/** Reads each request's JSON, records it, and answers with what `answer` gives (nothing: it never answers). */
function recording(answer: (req: Received) => unknown) {
  const requests: Received[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const received = { path: req.url ?? "/", headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> };
      requests.push(received);
      const body = answer(received);
      if (body === undefined) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  };
  return { requests, handle };
}

/**
 * OpenAI's moderation endpoint (POST /v1/moderations, one result per input text): a text with "attack"
 * in it is violence (score 0.92), anything else is clean.
 */
export async function startFakeModeration(key: string): Promise<FakeRemote> {
  const { requests, handle } = recording(({ headers, body }) => {
    if (headers.authorization !== `Bearer ${key}`) return { error: { message: "Incorrect API key provided" } };
    const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
    return {
      id: "modr-fake",
      model: body.model,
      results: input.map((text) => {
        const violent = text.includes("attack");
        return {
          flagged: violent,
          categories: { harassment: false, hate: false, violence: violent },
          category_scores: { harassment: 0.01, hate: 0.01, violence: violent ? 0.92 : 0.02 },
        };
      }),
    };
  });
  return Object.assign(await listen(http.createServer(handle)), { requests });
}

/**
 * An operator's guardrail webhook over HTTPS: /check refuses texts with "forbidden" in them and allows the
 * rest; /hang never answers.
 */
export async function startFakeWebhook(tlsPair: { key: string; cert: string }): Promise<FakeRemote> {
  const { requests, handle } = recording(({ path, body }) => {
    if (path === "/hang") return undefined;
    const texts = body.texts as string[];
    return texts.some((t) => t.includes("forbidden"))
      ? { allow: false, reason: "a forbidden topic", score: 0.9 }
      : { allow: true };
  });
  return Object.assign(await listen(https.createServer({ key: tlsPair.key, cert: tlsPair.cert }, handle)), {
    requests,
  });
}
