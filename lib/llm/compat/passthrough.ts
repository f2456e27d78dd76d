// Provider features that cost beyond tokens and would pass through the compatible surfaces as sent:
// Anthropic's server tools (web search, code execution…) and the betas that switch such things on, on
// /v1/messages; service tiers (priority, flex, scale) on /v1/chat/completions and /v1/responses. Each
// is refused unless the operator lists it in LLM_PASSTHROUGH_FEATURES, and what the provider says was
// used is metered (FeatureUse), priced where a price is known (lib/usage/prices.ts).
import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { FeatureUse } from "../../usage/meter.ts";

/** Anthropic's client tools: the caller runs them, so they cost nothing beyond tokens. */
const CLIENT_TOOLS: ReadonlySet<string> = new Set(["bash", "text_editor", "computer", "memory"]);

/**
 * Anthropic betas (by stem) that bill nothing beyond tokens, which the gateway meters: tool use and
 * streaming details, structured output, thinking and its display, caching as priced, context editing,
 * longer output, PDFs, the SDKs' and Claude Code's own. Any other beta may switch on something billed
 * apart (code execution, web fetch, skills, MCP servers, files, fast mode, 1M context, longer cache
 * lifetimes), or is one the gateway does not know yet, so it is a feature the operator lists.
 */
const FREE_BETAS: ReadonlySet<string> = new Set([
  "tools",
  "prompt-caching",
  "token-efficient-tools",
  "fine-grained-tool-streaming",
  "advanced-tool-use",
  "inline-tools",
  "structured-outputs",
  "interleaved-thinking",
  "dev-full-thinking",
  "thinking-binding-controls",
  "thinking-display-updates",
  "task-budgets",
  "output-128k",
  "max-tokens-3-5-sonnet",
  "computer-use",
  "pdfs",
  "token-counting",
  "claude-code",
  "oauth",
  "context-management",
  "compact",
  "mid-conversation-system",
  "mid-conversation-system-clear-at",
  "mid-conversation-output-config",
  "mid-conversation-tool-changes",
]);

/** The `service_tier` field of /v1/chat/completions and /v1/responses, as both declare it. */
export const ServiceTierField = z
  .string()
  .regex(/^[a-z_]{1,32}$/)
  .nullable()
  .optional()
  .openapi({
    description:
      "auto or default; another tier (priority, flex, scale) costs apart from tokens and is refused unless the operator lists it in LLM_PASSTHROUGH_FEATURES (service_tier:<tier>)",
  });

/** Service tiers that cost nothing extra: "auto" and "default" are what a request without one gets. */
const STANDARD_TIERS: ReadonlySet<string> = new Set(["auto", "default"]);

/** A versioned name without its date: web_search_20250305 → web_search, code-execution-2025-05-22 → code-execution. */
export const stem = (name: string): string => name.toLowerCase().replace(/[_-]\d{4}(?:-?\d{2}-?\d{2})?$/, "");

const BETA_FLAG = /^[a-z0-9._-]{1,64}$/i;
const MAX_BETAS = 32;

/**
 * The features a Messages request for Anthropic asks for beyond tokens: its server tools (`tools` of a
 * type other than a custom or client tool, named by the type's stem) and its betas other than free ones
 * (`anthropic-beta:<stem>`). A malformed `anthropic-beta` header is a 400.
 */
export function messagesFeatures(
  tools: ReadonlyArray<{ type?: string | null }> | undefined,
  beta: string | undefined,
): readonly string[] {
  if (!tools?.length && !beta) return NONE;
  const features: string[] = [];
  for (const tool of tools ?? []) {
    if (tool.type == null || tool.type === "custom") continue;
    const name = stem(tool.type);
    if (!CLIENT_TOOLS.has(name)) features.push(name);
  }
  const flags = (beta ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  if (flags.length > MAX_BETAS) throw new GatewayError(400, `anthropic-beta lists more than ${MAX_BETAS} betas`);
  for (const flag of flags) {
    if (!BETA_FLAG.test(flag)) throw new GatewayError(400, "anthropic-beta holds something that is not a beta's name");
    const name = stem(flag);
    if (!FREE_BETAS.has(name)) features.push(`anthropic-beta:${name}`);
  }
  return features;
}

// Most requests ask for nothing: one shared empty list, so the chat surfaces' hot path allocates none.
const NONE: readonly string[] = Object.freeze([]);

/** The feature a requested service tier is, if it costs other than the standard tier: `service_tier:<tier>`. */
export function serviceTierFeature(tier: string | null | undefined): readonly string[] {
  return tier == null || STANDARD_TIERS.has(tier) ? NONE : [`service_tier:${tier}`];
}

/**
 * 400 (in the surface's error shape, as its area declares it) naming every feature asked for that
 * the operator has not listed in LLM_PASSTHROUGH_FEATURES; nothing is sent to the provider then.
 */
export function refuseUnlisted(features: readonly string[], allowed: ReadonlySet<string>): void {
  if (features.every((f) => allowed.has(f))) return;
  const refused = [...new Set(features)].filter((f) => !allowed.has(f));
  const one = refused.length === 1;
  throw new GatewayError(
    400,
    `${refused.join(", ")} ${one ? "costs" : "cost"} beyond tokens and ${one ? "is" : "are"} not enabled on this gateway: ` +
      `its operator allows such a feature by listing it in LLM_PASSTHROUGH_FEATURES`,
  );
}

const TIER = /^[a-z_]{1,32}$/;

/** A tier a provider answered it served with, as metered: one use of `service_tier:<tier>` unless standard. */
export function serviceTierUse(tier: unknown): FeatureUse | undefined {
  if (typeof tier !== "string" || !TIER.test(tier) || STANDARD_TIERS.has(tier) || tier === "standard") return undefined;
  return { [`service_tier:${tier}`]: 1 };
}

const SERVER_TOOL_COUNT = /^([a-z_]{1,40})_requests$/;

/**
 * What an Anthropic answer's usage says was used beyond tokens: each count of `server_tool_use`
 * (web_search_requests → web_search) and a tier above standard. Undefined when nothing was.
 */
export function anthropicFeatureUse(
  usage: { server_tool_use?: unknown; service_tier?: unknown } | null | undefined,
): FeatureUse | undefined {
  const use: FeatureUse = { ...serviceTierUse(usage?.service_tier) };
  const counts = usage?.server_tool_use;
  if (counts && typeof counts === "object")
    for (const [field, n] of Object.entries(counts)) {
      const name = SERVER_TOOL_COUNT.exec(field)?.[1];
      if (name && typeof n === "number" && Number.isSafeInteger(n) && n > 0) use[name] = n;
    }
  return Object.keys(use).length ? use : undefined;
}
