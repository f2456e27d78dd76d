import type { SearchRecord } from "../source.ts";
import type { Hit } from "./client.ts";

/** An opinion search hit as a record: the cluster id, the case name, the first opinion's snippet. */
export const hitRecord = (h: Hit): SearchRecord => ({
  id: String(h.cluster_id),
  title: h.caseName,
  url: `https://www.courtlistener.com${h.absolute_url}`,
  summary: h.opinions?.[0]?.snippet?.trim() || null,
  published: h.dateFiled ?? null,
  source: "judiciary",
  extra: { court: h.court ?? null, docket: h.docketNumber ?? null, citations: h.citation ?? [] },
});
