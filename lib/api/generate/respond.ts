import type { Context } from "hono";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { reportCompletion } from "../llm/usage-report.ts";
import type { Generated } from "./template.ts";

/**
 * A generation's answer: its result record with the provider (SPEC "Templated-generation results") and
 * the rules it still breaks as `warnings` when there are any, and its tokens (repair turn included)
 * metered to the key like any completion.
 */
export function respondGenerated<T extends object>(
  c: Context<GatewayEnv>,
  generated: Generated<T>,
  extra: Record<string, unknown> = {},
): Response {
  reportCompletion(c, generated);
  const warnings = generated.warnings.length ? { warnings: generated.warnings } : {};
  return c.json({ ...generated.result, ...extra, provider: generated.provider, ...warnings }, 200);
}
