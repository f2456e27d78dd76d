/** Dates in the portal: UTC to the minute, the same on every viewer's screen and in every test. */
export function formatUtc(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A request's time in the request log: UTC to the second, since many fall in one minute. */
export function formatUtcSeconds(value: Date): string {
  return `${value.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A byte count as a person reads it: exact below a kilobyte, then kB and MB (decimal, one place). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} kB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}

/** A request's estimated cost in USD: small amounts keep their first significant digits; unknown is a dash. */
export function formatUsd(value: number | null): string {
  if (value === null) return "—";
  if (value === 0) return "$0";
  if (value >= 0.01) return `$${value.toFixed(4)}`;
  // Two significant digits, written out (toPrecision alone turns to exponents below 1e-6).
  return `$${Number(value.toPrecision(2)).toFixed(Math.min(20, 1 - Math.floor(Math.log10(value))))}`;
}

/**
 * A request id short enough for a table cell: the first 8 characters of a generated id (enough to tell
 * rows apart), a research call's `:<agent>` kept; the link's name and the detail page carry the whole id.
 */
export function shortRequestId(id: string): string {
  const [head = id, ...rest] = id.split(":");
  const agent = rest.length ? `:${rest.join(":")}` : "";
  return head.length > 12 ? `${head.slice(0, 8)}…${agent}` : id;
}

/** A key's state as a person reads it: expiry counts as much as revocation. */
export function keyState(
  key: { status: string; expires_at: string | null },
  now = Date.now(),
): "active" | "revoked" | "expired" | "expiring" {
  if (key.status === "revoked") return "revoked";
  if (key.expires_at === null) return "active";
  return new Date(key.expires_at).getTime() <= now ? "expired" : "expiring";
}
