import autocannon, { type Result } from "autocannon";

/** Connections and seconds of a non-streamed completion load (BENCH_LLM_CONNECTIONS, BENCH_SECONDS). */
export const CONNECTIONS = Number(process.env.BENCH_LLM_CONNECTIONS ?? 20);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const body = JSON.stringify({ model: "xai/grok-4-fast", messages: [{ role: "user", content: "Say hello." }] });

/**
 * The same short chat completion POSTed for `duration` seconds: the load of every relayed-completion
 * bench. `fresh`: every request a question not asked before (the response cache's misses).
 */
export function loadCompletions(
  url: string,
  headers: Record<string, string>,
  duration = SECONDS,
  /** Requests a second from all connections together; unset, as many as the server answers. */
  overallRate?: number,
  { fresh = false } = {},
): Promise<Result> {
  let n = 0;
  return autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration,
    ...(overallRate !== undefined && { overallRate }),
    headers: { "content-type": "application/json", ...headers },
    body,
    ...(fresh && {
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              model: "xai/grok-4-fast",
              messages: [{ role: "user", content: `Say hello, number ${process.pid}-${Date.now()}-${n++}.` }],
            }),
          }),
        },
      ],
    }),
  });
}
