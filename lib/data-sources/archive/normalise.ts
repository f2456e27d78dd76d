import type { SearchRecord } from "../source.ts";
import { WEB, type Availability } from "./client.ts";

type Closest = NonNullable<NonNullable<Availability["archived_snapshots"]>["closest"]>;

/** CDX's JSON rows as one object per capture, keyed by the header row's column names. */
export function captureRows(rows: unknown): Record<string, string>[] {
  const [header, ...data] = Array.isArray(rows) ? (rows as string[][]) : [];
  if (!header) return [];
  return data.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])) as Record<string, string>);
}

/** A capture as a record: its Wayback URL, its type and status as the summary. */
export const captureRecord = (c: Record<string, string>): SearchRecord => ({
  id: `${c.timestamp}/${c.original}`,
  title: `${c.original} at ${c.timestamp}`,
  url: `${WEB}/web/${c.timestamp}/${c.original}`,
  summary: `${c.mimetype ?? ""} ${c.statuscode ?? ""}`.trim() || null,
  published: c.timestamp ?? null,
  source: "archive",
  extra: c,
});

/** A snapshot: the capture the availability API found, and the page as captured. */
export const snapshotView = (url: string, closest: Closest & { timestamp: string }, content: string) => ({
  url,
  timestamp: closest.timestamp,
  snapshot_url: closest.url ?? `${WEB}/web/${closest.timestamp}/${url}`,
  status: closest.status ?? null,
  content,
});
