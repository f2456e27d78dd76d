import { listen, type Listening } from "../support/listen.ts";

const completion = JSON.stringify({
  id: "chatcmpl-load",
  object: "chat.completion",
  created: 1_760_000_000,
  model: "grok-4-fast",
  choices: [{ index: 0, message: { role: "assistant", content: "held" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
});

/**
 * A provider (OpenAI's chat wire, as UPSTREAM_XAI_URL) that holds each completion `holdMs` and counts,
 * per tag (the first message's content, which the load sets to the key's name), how many of its calls
 * were in flight at once. A call reaches it only inside a gateway slot, so its count can never be above
 * the number of slots the key really held: an honest witness of the concurrency limit.
 */
export async function startSlowProvider(holdMs: number): Promise<Listening & { maxInFlight: Map<string, number> }> {
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const listening = await listen(async (req) => {
    const body = (await req.json()) as { messages?: Array<{ content?: unknown }> };
    const tag = String(body.messages?.[0]?.content ?? "");
    const now = (inFlight.get(tag) ?? 0) + 1;
    inFlight.set(tag, now);
    maxInFlight.set(tag, Math.max(now, maxInFlight.get(tag) ?? 0));
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    inFlight.set(tag, inFlight.get(tag)! - 1);
    return new Response(completion, { headers: { "content-type": "application/json" } });
  });
  return Object.assign(listening, { maxInFlight });
}
