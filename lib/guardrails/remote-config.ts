// The settings of a policy's remote checks, as the routing file writes them: `moderation` (OpenAI's
// moderation endpoint) and `webhook` (the operator's own service). Kept apart from policy.ts so the
// checks that call out are read, and changed, in one place (docs/guardrails.md#remote-checks).
import { z } from "zod";

/** The categories OpenAI's omni-moderation models score; a policy may watch some of them only. */
export const MODERATION_CATEGORIES = [
  "harassment",
  "harassment/threatening",
  "hate",
  "hate/threatening",
  "illicit",
  "illicit/violent",
  "self-harm",
  "self-harm/intent",
  "self-harm/instructions",
  "sexual",
  "sexual/minors",
  "violence",
  "violence/graphic",
] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

const DEFAULT_MODERATION_MODEL = "omni-moderation-latest";
const DEFAULT_WEBHOOK_TIMEOUT_MS = 2000;
const MAX_WEBHOOK_TIMEOUT_MS = 30_000;

export const moderationSchema = z.strictObject({
  categories: z
    .array(z.enum(MODERATION_CATEGORIES, { error: `one of ${MODERATION_CATEGORIES.join(", ")}` }))
    .min(1)
    .optional(),
  // Absent: what the endpoint itself flags (its per-category booleans).
  threshold: z.number().min(0).max(1).optional(),
  model: z.string().trim().min(1).max(200).default(DEFAULT_MODERATION_MODEL),
});

// A header the gateway sets itself (the body's type and length, the host the URL names, who is asking) is
// not the operator's to send.
const RESERVED_HEADERS = new Set([
  "host",
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "user-agent",
  "accept",
  "accept-encoding",
]);

export const webhookSchema = z.strictObject({
  // HTTPS only and no credentials in it, as every URL under the outbound address policy (lib/upstream/safe-fetch.ts).
  url: z
    .url({ protocol: /^https$/, error: "an https URL such as https://guard.example.com/check" })
    .refine((raw) => !new URL(raw).username && !new URL(raw).password, {
      error: "put credentials in webhook.headers, not in the URL",
    }),
  timeout_ms: z.number().int().positive().max(MAX_WEBHOOK_TIMEOUT_MS).default(DEFAULT_WEBHOOK_TIMEOUT_MS),
  on_error: z.enum(["open", "closed"], { error: "open or closed" }).default("closed"),
  // Names checked here rather than by the record's key schema, whose error would not say what is wrong.
  headers: z
    .record(
      z.string(),
      z
        .string()
        .max(8192)
        .regex(/^[^\r\n\0]*$/, { error: "a header value on one line" }),
    )
    .superRefine((headers, ctx) => {
      for (const name of Object.keys(headers)) {
        if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name))
          ctx.addIssue({ code: "custom", path: [name], message: "not a header name" });
        else if (RESERVED_HEADERS.has(name.toLowerCase()))
          ctx.addIssue({ code: "custom", path: [name], message: "a header the gateway sets itself" });
      }
    })
    .optional(),
});

export type ModerationSettings = z.output<typeof moderationSchema>;
export type WebhookSettings = z.output<typeof webhookSchema>;
