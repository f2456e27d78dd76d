import { GatewayError } from "../../../../errors.ts";
import type { DataSource, SearchRecord, SourceContext } from "../../source.ts";

const WEB = "https://web.archive.org";
const TIMESTAMP = /^\d{4,14}$/;

function checkUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    return u.toString();
  } catch {
    throw new GatewayError(400, "url must be an absolute http(s) URL");
  }
}

/** The archived copy closest to a time (Wayback availability API), with the page as archived. */
export async function snapshot(ctx: SourceContext, rawUrl: string, timestamp?: string) {
  const url = checkUrl(rawUrl);
  if (timestamp && !TIMESTAMP.test(timestamp))
    throw new GatewayError(400, "timestamp must be YYYYMMDDHHMMSS (or a prefix of it)");
  const body = await ctx.client.get<{
    archived_snapshots?: { closest?: { available?: boolean; url?: string; timestamp?: string; status?: string } };
  }>({ path: "/wayback/available", query: { url, timestamp } });
  const closest = body.archived_snapshots?.closest;
  if (!closest?.available || !closest.timestamp) throw new GatewayError(404, `the archive has no snapshot of ${url}`);
  // id_ asks for the page exactly as captured, without the archive's toolbar.
  const content = await ctx.client.get<string>({
    origin: WEB,
    path: `/web/${closest.timestamp}id_/${url}`,
    responseType: "text",
  });
  return {
    url,
    timestamp: closest.timestamp,
    snapshot_url: closest.url ?? `${WEB}/web/${closest.timestamp}/${url}`,
    status: closest.status ?? null,
    content,
  };
}

/** Captures of a URL (or a bare host such as example.com, as CDX allows) from the CDX server, oldest first. */
export async function captures(ctx: SourceContext, rawUrl: string, limit: number) {
  const url = /^[a-z0-9.-]+\.[a-z]{2,}(\/\S*)?$/i.test(rawUrl) ? rawUrl : checkUrl(rawUrl);
  const rows = await ctx.client.get<string[][]>({
    origin: WEB,
    path: "/cdx/search/cdx",
    query: { url, output: "json", limit, fl: "timestamp,original,mimetype,statuscode,length" },
  });
  const [header, ...data] = Array.isArray(rows) ? rows : [];
  if (!header) return [];
  return data.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])) as Record<string, string>);
}

export const archive: DataSource = {
  name: "archive",
  description: "Internet Archive Wayback Machine: captures of a URL and the archived page itself",
  upstream: { name: "archive", origin: "https://archive.org", cacheTtlMs: 60 * 60_000 },
  async search(ctx, query, limit) {
    return (await captures(ctx, query, limit)).map((c): SearchRecord => ({
      id: `${c.timestamp}/${c.original}`,
      title: `${c.original} at ${c.timestamp}`,
      url: `${WEB}/web/${c.timestamp}/${c.original}`,
      summary: `${c.mimetype ?? ""} ${c.statuscode ?? ""}`.trim() || null,
      published: c.timestamp ?? null,
      source: "archive",
      extra: c,
    }));
  },
  get: (ctx, id) => snapshot(ctx, id),
};
