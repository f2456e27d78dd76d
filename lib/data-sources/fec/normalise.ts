import type { SearchRecord } from "../source.ts";
import type { Candidate } from "./client.ts";

/** A candidate as a record: office, state and party as the summary. */
export const candidateRecord = (c: Candidate): SearchRecord => ({
  id: c.candidate_id,
  title: c.name,
  url: `https://www.fec.gov/data/candidate/${c.candidate_id}/`,
  summary: [c.office_full, c.state, c.party_full].filter(Boolean).join(" · ") || null,
  source: "fec",
  extra: { election_years: c.election_years ?? [] },
});
