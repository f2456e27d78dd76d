import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { available, capturedPage, cdx, upstream } from "./client.ts";
import { captureRecord, captureRows, snapshotView } from "./normalise.ts";

/** A Wayback timestamp: YYYYMMDDhhmmss or any prefix of it down to the year. */
export const TIMESTAMP = /^\d{4,14}$/;

// The URLs checkUrl accepts, as a pattern a JSON Schema can carry (no flags, whole value). It is
// narrower than the URL parser on purpose, so that whatever matches parses: a host's last label
// starts with a letter (a numeric one makes the parser read an IPv4 address and fail), labels have
// no "--" (an "xn--" label that is not valid punycode fails), ports stop at 65535.
const LABEL = "[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*";
const HOST = `(?:${LABEL}\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*`;
const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PORT = "(?:[1-5]?\\d{1,4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])";
const HTTP_URL_SOURCE = `https?:\\/\\/(?:${HOST}|${IPV4})(?::${PORT})?(?:[/?#]\\S*)?`;
// What CDX takes besides a URL: a bare host, optionally with a path (example.com, example.com/a).
const BARE_HOST_SOURCE = "[A-Za-z0-9.-]+\\.[A-Za-z]{2,}(?:\\/\\S*)?";
const BARE_HOST = new RegExp(`^${BARE_HOST_SOURCE}$`);
/** An absolute http(s) URL that checkUrl accepts. */
export const HTTP_URL = new RegExp(`^${HTTP_URL_SOURCE}$`);
/** What captures() accepts: a bare host (with or without a path) or an absolute http(s) URL. */
export const CAPTURE_TARGET = new RegExp(`^(?:${BARE_HOST_SOURCE}|${HTTP_URL_SOURCE})$`);

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
  const body = await available(ctx, url, timestamp);
  const closest = body.archived_snapshots?.closest;
  if (!closest?.available || !closest.timestamp) throw new GatewayError(404, `the archive has no snapshot of ${url}`);
  const content = await capturedPage(ctx, closest.timestamp, url);
  return snapshotView(url, { ...closest, timestamp: closest.timestamp }, content);
}

/** Captures of a URL (or a bare host such as example.com, as CDX allows) from the CDX server, oldest first. */
export async function captures(ctx: SourceContext, rawUrl: string, limit: number) {
  const url = BARE_HOST.test(rawUrl) ? rawUrl : checkUrl(rawUrl);
  return captureRows(await cdx(ctx, url, limit));
}

export const archive: DataSource = {
  name: "archive",
  description: "Internet Archive Wayback Machine: captures of a URL and the archived page itself",
  upstream,
  search: async (ctx, query, limit) => (await captures(ctx, query, limit)).map(captureRecord),
  get: (ctx, id) => snapshot(ctx, id),
};
