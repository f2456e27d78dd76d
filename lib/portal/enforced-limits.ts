import type { Limits } from "../gateway/runtime/limits/windows.ts";

export type LimitSource = "key" | "default" | "console";
export type EnforcedLimits = { [K in keyof Limits]: { value: number; source: LimitSource } };

/**
 * The numbers the gateway enforces for a key, and where each comes from: the key's own setting, else
 * the console policy for a console key (withConsolePolicy, record.ts), else the service default
 * (LIMIT_*). The same precedence the key cache applies, so the operator sees what callers meet.
 */
export function enforcedLimits(
  key: { kind: string; limits: { [K in keyof Limits]: number | null } },
  config: { limits: Limits; console: { limits: Limits } },
): EnforcedLimits {
  const fallback = key.kind === "console" ? config.console.limits : config.limits;
  const source: LimitSource = key.kind === "console" ? "console" : "default";
  const one = (k: keyof Limits) => {
    const own = key.limits[k];
    return own === null ? { value: fallback[k], source } : { value: own, source: "key" as const };
  };
  return { day: one("day"), minute: one("minute"), concurrency: one("concurrency") };
}

/** Where a limit comes from, in the words of the admin page and the environment variable that sets it. */
export function limitSourceText(source: LimitSource, window: keyof Limits): string {
  const suffix = window.toUpperCase();
  if (source === "key") return "set for this key";
  return source === "console" ? `console default, CONSOLE_LIMIT_${suffix}` : `service default, LIMIT_${suffix}`;
}
