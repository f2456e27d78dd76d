import type { DataSource, SearchRecord } from "../source.ts";

/** A DOI: 10.<registrant>/<suffix>. */
export const DOI = /^10\.\d{4,9}\/\S+$/;
/**
 * The paper ids the Graph API takes: its own 40-hex id, a prefixed id (DOI:…, ARXIV:… / arXiv:…,
 * CorpusId:…, PMID:…, PMCID:…, MAG:…, ACL:…, URL:…), or a bare DOI, which get() prefixes itself.
 */
export const PAPER_ID = /^(?:[0-9a-f]{40}|(?:CorpusId|DOI|ARXIV|arXiv|PMID|PMCID|MAG|ACL|URL):\S+|10\.\d{4,9}\/\S+)$/;

const FIELDS = "title,url,abstract,authors,year,venue,citationCount,externalIds,openAccessPdf";
const headers = (): Record<string, string> => {
  const key = process.env.SEMANTIC_SCHOLAR_API_KEY?.trim();
  return key ? { "x-api-key": key } : {};
};

type Paper = {
  paperId: string;
  title: string;
  url?: string;
  abstract?: string | null;
  authors?: Array<{ name: string }>;
  year?: number | null;
  venue?: string;
  citationCount?: number;
  externalIds?: Record<string, string>;
  openAccessPdf?: { url?: string } | null;
};

const record = (p: Paper): SearchRecord => ({
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

export const semanticScholar: DataSource = {
  name: "semantic_scholar",
  description: "Semantic Scholar papers (SEMANTIC_SCHOLAR_API_KEY optional); get by paper id, DOI:…, arXiv:… or PMID:…",
  upstream: { name: "semantic_scholar", origin: "https://api.semanticscholar.org", cacheTtlMs: 60 * 60_000 },
  async search(ctx, query, limit) {
    const body = await ctx.client.get<{ data?: Paper[] }>({
      path: "/graph/v1/paper/search",
      query: { query, limit: Math.min(limit, 100), fields: FIELDS },
      headers: headers(),
    });
    return (body.data ?? []).map(record);
  },
  async get(ctx, id) {
    // A bare DOI is accepted as well as Semantic Scholar's prefixed forms.
    const paperId = /^10\.\d{4,9}\//.test(id) ? `DOI:${id}` : id;
    return record(
      await ctx.client.get<Paper>({
        path: `/graph/v1/paper/${encodeURIComponent(paperId)}`,
        query: { fields: FIELDS },
        headers: headers(),
      }),
    );
  },
};
