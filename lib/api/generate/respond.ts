import type { Call } from "../../gateway/pipeline/call.ts";
import { completionUsage } from "../../llm/usage-report.ts";
import type { Generated } from "./template.ts";

/**
 * A generation's answer: its result record with the provider (SPEC "Templated-generation results") and
 * the rules it still breaks as `warnings` when there are any, and its tokens (repair turn included)
 * metered to the key like any completion.
 */
export function respondGenerated<T extends object, E extends object = object>(
  c: Call,
  generated: Generated<T>,
  extra: E = {} as E,
): T & E & { provider: string; warnings?: string[] } {
  c.report(completionUsage(generated));
  const warnings = generated.warnings.length ? { warnings: generated.warnings } : {};
  return { ...generated.result, ...extra, provider: generated.provider, ...warnings };
}
