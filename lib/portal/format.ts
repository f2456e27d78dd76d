/** Dates in the portal: UTC to the minute, the same on every viewer's screen and in every test. */
export function formatUtc(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
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
