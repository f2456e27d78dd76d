const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Today as a date input writes it (YYYY-MM-DD, UTC): the earliest last day a new key may have. */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A key's last day from a date input: the key works through that day (UTC) and stops at the next
 * midnight UTC. Empty means the key does not expire.
 */
export function expiryFromDay(day: string, now = new Date()): { expiresAt: Date | undefined } | { error: string } {
  if (day.trim() === "") return { expiresAt: undefined };
  const m = DAY.exec(day.trim());
  const start = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  // Date.UTC rolls 2026-02-30 over to March: a day that does not round-trip is not a real day.
  if (!start || start.toISOString().slice(0, 10) !== day.trim())
    return { error: "the last day must be a date like 2026-12-31" };
  const expiresAt = new Date(start.getTime() + 86_400_000);
  if (expiresAt <= now) return { error: `the last day cannot be before today (${todayUtc(now)}, UTC)` };
  return { expiresAt };
}

/** The last day a key works, as expiryFromDay took it: the day before the midnight (UTC) it stops at. */
export function lastDay(expiresAt: Date): string {
  return todayUtc(new Date(expiresAt.getTime() - 1));
}
