import { lastDay } from "./expiry-day.ts";

/** What a key request asks for, in one line: the areas and the last day (for the requester and the operator). */
export function requestTerms(request: { scopes: readonly string[]; expiresAt: Date | null }): string {
  const areas = request.scopes.length ? request.scopes.join(", ") : "every area";
  const until = request.expiresAt ? `${lastDay(request.expiresAt)} (UTC)` : "none (does not expire)";
  return `Areas: ${areas} · last day: ${until}`;
}
