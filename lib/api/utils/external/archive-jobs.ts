import type { Runtime } from "../../../gateway/runtime/runtime.ts";
import type { JobOwner } from "../../../jobs/runner.ts";
import type { Task } from "../../../jobs/task-store.ts";
import { CallStop } from "../../../upstream/call-stop.ts";
import { captures } from "../../../data-sources/archive/index.ts";
import type { SourceContext } from "../../../data-sources/source.ts";

export const ARCHIVE_JOB = "archive.save";

/** Wayback summary of a URL: first and last capture and how many there are (CDX, one page of up to 10,000). */
export async function waybackSummary(ctx: SourceContext, url: string) {
  const rows = await captures(ctx, url, 10_000);
  const stamps = rows
    .map((r) => r.timestamp ?? "")
    .filter(Boolean)
    .sort();
  const at = (ts: string | undefined) => (ts ? `https://web.archive.org/web/${ts}/${url}` : null);
  return {
    url,
    first: stamps[0] ?? null,
    last: stamps.at(-1) ?? null,
    first_url: at(stamps[0]),
    last_url: at(stamps.at(-1)),
    snapshot_count: stamps.length,
  };
}

/**
 * Asks the Wayback Machine to save a page (GET /save/{url}, which answers once the capture is made
 * and redirects to it), as a background job whose result is the snapshot URL.
 */
export async function createArchiveJob(rt: Runtime, ctx: SourceContext, owner: JobOwner, url: string): Promise<Task> {
  return rt.runner.submit(
    owner,
    () => rt.tasks.create(ARCHIVE_JOB, owner.id, { url }),
    async () => {
      const res = await fetch(ctx.client.url({ origin: "https://web.archive.org", path: `/save/${url}` }), {
        redirect: "follow",
        signal: new CallStop(120_000).signal,
      });
      if (!res.ok) throw new Error(`the archive refused to save the page (${res.status})`);
      await res.body?.cancel();
      const location = res.headers.get("content-location");
      return { snapshot_url: location ? `https://web.archive.org${location}` : res.url };
    },
  );
}
