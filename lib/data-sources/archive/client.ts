import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = { name: "archive", origin: "https://archive.org", cacheTtlMs: 60 * 60_000 };

/** The Wayback Machine, where captures are listed and served. */
export const WEB = "https://web.archive.org";

/** The Wayback availability API's answer. */
export type Availability = {
  archived_snapshots?: { closest?: { available?: boolean; url?: string; timestamp?: string; status?: string } };
};

/** The capture closest to a time (any time when none is given). */
export const available = (ctx: SourceContext, url: string, timestamp?: string) =>
  ctx.client.get<Availability>({ path: "/wayback/available", query: { url, timestamp } });

/** A capture's page exactly as captured: id_ asks for it without the archive's toolbar. */
export const capturedPage = (ctx: SourceContext, timestamp: string, url: string) =>
  ctx.client.get<string>({ origin: WEB, path: `/web/${timestamp}id_/${url}`, responseType: "text" });

/** The CDX server's captures of a URL as JSON rows, the first row naming the columns. */
export const cdx = (ctx: SourceContext, url: string, limit: number) =>
  ctx.client.get<unknown>({
    origin: WEB,
    path: "/cdx/search/cdx",
    query: { url, output: "json", limit, fl: "timestamp,original,mimetype,statuscode,length" },
  });
