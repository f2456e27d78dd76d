// A policy's remote checks on a model call's prompt: OpenAI's moderation endpoint and the operator's
// webhook, each asked once per call, both at once, about the texts users sent. They run after the local
// checks, on the texts as the provider will get them: what a redacting policy redacted is not sent to a
// third party either. What they decide joins the local checks' decisions (the header, the metric, the
// request log); a block refuses the call with the local checks' 400, a check that does not answer
// refuses it with 503 unless its policy lets such calls through (the webhook's on_error: open).
import type { Runtime } from "../gateway/runtime/runtime.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import type { GuardrailDecision } from "./decision.ts";
import { moderate } from "./moderation.ts";
import type { GuardrailPolicy } from "./policy.ts";
import { promptSlots, type PromptGuard } from "./prompt-guard.ts";
import type { RemoteVerdict } from "./remote-verdict.ts";
import { askWebhook, type AddressPolicy } from "./webhook.ts";

/** The most text (UTF-8) one call sends to each remote check: the rest of a longer prompt is not checked remotely. */
export const REMOTE_TEXT_MAX_BYTES = 64 * 1024;

/** What the remote checks need of the call and the gateway. */
export type RemoteContext = {
  requestId: string;
  keyId?: string;
  /** The OpenAI upstream's origin and key, for the moderation check; no key: the check cannot answer. */
  openai: { origin: string; apiKey?: string };
  addresses: AddressPolicy;
  /** Where a check that did not answer is logged with its detail (the caller is told less). */
  warn(fields: Record<string, unknown>, message: string): void;
};

/** The context of a call by `keyId` on this gateway: its OpenAI upstream, its outbound address policy, its log. */
export function remoteContext(
  rt: Pick<Runtime, "config" | "resolveHost" | "logger">,
  requestId: string,
  keyId: string,
): RemoteContext {
  const apiKey = process.env.OPENAI_API_KEY?.trim();
  return {
    requestId,
    keyId,
    openai: { origin: upstreamOrigin("openai", "https://api.openai.com"), ...(apiKey && { apiKey }) },
    addresses: {
      allowPrivate: rt.config.proxy.allowPrivate,
      ...(rt.config.proxy.extraCa && { extraCa: rt.config.proxy.extraCa }),
      ...(rt.resolveHost && { resolve: rt.resolveHost }),
    },
    warn: (fields, message) => rt.logger.warn(fields, message),
  };
}

/**
 * The texts users sent (not the operator's system and developer texts, which are theirs to word), as
 * they now stand in `body`, cut to REMOTE_TEXT_MAX_BYTES in all.
 */
export function remoteTexts(body: Record<string, unknown>): string[] {
  const texts: string[] = [];
  let room = REMOTE_TEXT_MAX_BYTES;
  for (const slot of promptSlots(body)) {
    if (slot.operator) continue;
    const text = slot.read();
    const bytes = Buffer.byteLength(text);
    if (bytes <= room) texts.push(text);
    // A character cut in two at the limit decodes as U+FFFD: dropped, so the text stays within it.
    else if (room > 0)
      texts.push(
        Buffer.from(text)
          .subarray(0, room)
          .toString("utf8")
          .replace(/\uFFFD$/, ""),
      );
    room -= Math.min(bytes, room);
    if (room === 0) break;
  }
  return texts.filter((text) => text.length > 0);
}

/**
 * `guard` (the local checks' outcome, which refused nothing) with the remote checks' decisions added, and
 * the refusal they lead to: 400 when one fired under block, else 503 when one did not answer and its
 * policy refuses calls it cannot check.
 */
export async function guardRemotely(
  policy: GuardrailPolicy,
  body: Record<string, unknown>,
  guard: PromptGuard,
  ctx: RemoteContext,
): Promise<PromptGuard> {
  const texts = remoteTexts(body);
  if (texts.length === 0) return guard;
  const { moderation, webhook } = policy;
  const [moderated, answered] = await Promise.all([
    moderation &&
      (ctx.openai.apiKey
        ? moderate(texts, moderation, { origin: ctx.openai.origin, apiKey: ctx.openai.apiKey })
        : ({ kind: "failed", why: "OPENAI_API_KEY is not set", detail: "OPENAI_API_KEY is not set" } as const)),
    webhook &&
      askWebhook(
        {
          policy: policy.name,
          stage: "prompt",
          texts,
          ...(ctx.keyId && { key_id: ctx.keyId }),
          request_id: ctx.requestId,
        },
        webhook,
        ctx.addresses,
      ),
  ]);
  const decisions = [...guard.decisions];
  const refusals: string[] = [];
  const unanswered: string[] = [];
  const verdicts = [
    { check: "moderation", verdict: moderated, failOpen: false },
    { check: "webhook", verdict: answered, failOpen: webhook?.on_error === "open" },
  ] as const;
  for (const { check, verdict, failOpen } of verdicts) {
    if (!verdict || verdict.kind === "pass") continue;
    const decision = { policy: policy.name, check, stage: "prompt" } as const;
    if (verdict.kind === "found") {
      // A remote verdict cannot be redacted: under redact it is flagged.
      const action = policy.action === "block" ? "block" : "flag";
      decisions.push({ ...decision, action, found: verdict.found, ...scoreOf(verdict) });
      refusals.push(verdict.why);
      continue;
    }
    ctx.warn(
      { requestId: ctx.requestId, policy: policy.name, check, err: verdict.detail },
      `guardrails: the ${check} check did not answer`,
    );
    decisions.push({ ...decision, action: failOpen ? "flag" : "block", found: { error: 1 } });
    if (!failOpen) unanswered.push(`the ${check} check did not answer usably (${verdict.why})`);
  }
  if (policy.action === "block" && refusals.length)
    return {
      ...guard,
      decisions,
      refusal: `guardrails: ${refusals.join("; ")}, which the policy "${policy.name}" does not let through`,
    };
  if (unanswered.length)
    return {
      ...guard,
      decisions,
      refusal: `guardrails: ${unanswered.join("; ")}, and the policy "${policy.name}" does not let a call through unchecked`,
      refusalStatus: 503,
    };
  return { ...guard, decisions };
}

const scoreOf = (verdict: RemoteVerdict & { kind: "found" }): Pick<GuardrailDecision, "score"> =>
  verdict.score === undefined ? {} : { score: verdict.score };
