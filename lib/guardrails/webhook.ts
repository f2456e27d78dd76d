// The webhook check: the prompt's texts POSTed to the operator's own service, which answers whether the
// call may go on. The URL is the operator's, yet it goes under the outbound address policy all the same
// (lib/upstream/safe-fetch.ts: HTTPS, no private or loopback address after DNS, the connection pinned to
// the address checked), as a routing file is no licence to reach the gateway's own network; and no
// redirect is followed, so the texts go to the URL the operator named and nowhere else.
import { z } from "zod";
import { GatewayError } from "../errors.ts";
import { USER_AGENT } from "../upstream/http.ts";
import { safeFetch, type SafeFetchOptions } from "../upstream/safe-fetch.ts";
import type { WebhookSettings } from "./remote-config.ts";
import { failure, type RemoteVerdict } from "./remote-verdict.ts";

/** What the webhook is sent (docs/guardrails.md#remote-checks). */
export type WebhookRequest = {
  policy: string;
  stage: "prompt";
  texts: string[];
  /** The calling key's id (never its secret). */
  key_id?: string;
  request_id: string;
};

/** What it answers: whether the call may go on, and optionally why and how sure (0 to 1). Other fields are ignored. */
const answerSchema = z.object({
  allow: z.boolean(),
  reason: z.string().optional(),
  score: z.number().min(0).max(1).optional(),
});

// A verdict is a few words: more is a broken service, not an answer.
const ANSWER_MAX_BYTES = 64 * 1024;
// The reason is repeated to the caller in a refusal: a sentence, not a page.
const REASON_CHARS = 200;

/** The outbound address policy's settings: its test-only exemptions, extra CA and resolver (rt.config.proxy, rt.resolveHost). */
export type AddressPolicy = Pick<SafeFetchOptions, "allowPrivate" | "extraCa" | "resolve">;

/** Asks the webhook about `request`; a refusal is "found" (`denied`), anything but a 2xx verdict in time "failed". */
export async function askWebhook(
  request: WebhookRequest,
  settings: WebhookSettings,
  addresses: AddressPolicy,
): Promise<RemoteVerdict> {
  const timeoutMs = settings.timeout_ms;
  let timer: NodeJS.Timeout | undefined;
  // safeFetch's own deadline starts once the name is resolved: this one holds the lookup to the same limit.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new GatewayError(504, `the webhook did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const res = await Promise.race([
      safeFetch(settings.url, {
        ...addresses,
        maxBytes: ANSWER_MAX_BYTES,
        timeoutMs,
        maxRedirects: 0,
        userAgent: USER_AGENT,
        post: { json: JSON.stringify(request), ...(settings.headers && { headers: settings.headers }) },
      }),
      deadline,
    ]);
    const text = res.body.toString("utf8");
    if (res.status < 200 || res.status > 299)
      return { kind: "failed", why: `status ${res.status}`, detail: text.slice(0, 300) };
    const parsed = answerSchema.safeParse(JSON.parse(text));
    if (!parsed.success)
      return { kind: "failed", why: "an answer that is not {allow, reason?, score?}", detail: parsed.error.message };
    const { allow, reason, score } = parsed.data;
    if (allow) return { kind: "pass" };
    const said = reason?.trim().slice(0, REASON_CHARS);
    return {
      kind: "found",
      found: { denied: 1 },
      ...(score !== undefined && { score }),
      why: `the webhook check did not allow the prompt${said ? ` (${said})` : ""}`,
    };
  } catch (err) {
    return failure(err, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}
