import type { SearchRecord } from "../source.ts";
import type { Paper } from "./client.ts";

/** A paper as a record: venue, citation count, DOI and open-access PDF as extras. */
export const paperRecord = (p: Paper): SearchRecord => ({
  id: p.paperId,
  title: p.title,
  url: p.url ?? `https://www.semanticscholar.org/paper/${p.paperId}`,
  summary: p.abstract ?? null,
  authors: (p.authors ?? []).map((a) => a.name),
  published: p.year ? String(p.year) : null,
  source: "semantic_scholar",
  extra: {
    venue: p.venue ?? null,
    citations: p.citationCount ?? null,
    doi: p.externalIds?.DOI ?? null,
    pdf: p.openAccessPdf?.url ?? null,
  },
});
