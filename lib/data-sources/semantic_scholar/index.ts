import type { DataSource } from "../source.ts";
import { paper, searchPapers, upstream } from "./client.ts";
import { paperRecord } from "./normalise.ts";

/** A DOI: 10.<registrant>/<suffix>. */
export const DOI = /^10\.\d{4,9}\/\S+$/;
/**
 * The paper ids the Graph API takes: its own 40-hex id, a prefixed id (DOI:…, ARXIV:… / arXiv:…,
 * CorpusId:…, PMID:…, PMCID:…, MAG:…, ACL:…, URL:…), or a bare DOI, which get() prefixes itself.
 */
export const PAPER_ID = /^(?:[0-9a-f]{40}|(?:CorpusId|DOI|ARXIV|arXiv|PMID|PMCID|MAG|ACL|URL):\S+|10\.\d{4,9}\/\S+)$/;

export const semanticScholar: DataSource = {
  name: "semantic_scholar",
  description: "Semantic Scholar papers (SEMANTIC_SCHOLAR_API_KEY optional); get by paper id, DOI:…, arXiv:… or PMID:…",
  upstream,
  search: async (ctx, query, limit) => ((await searchPapers(ctx, query, limit)).data ?? []).map(paperRecord),
  async get(ctx, id) {
    // A bare DOI is accepted as well as Semantic Scholar's prefixed forms.
    return paperRecord(await paper(ctx, /^10\.\d{4,9}\//.test(id) ? `DOI:${id}` : id));
  },
};
