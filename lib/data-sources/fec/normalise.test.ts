import { describe, expect, it } from "vitest";
import { candidateRecord } from "./normalise.ts";

describe("fec records", () => {
  it("summarise office, state and party, and link the candidate's FEC page", () => {
    const c = {
      candidate_id: "P80001571",
      name: "DOE, JANE",
      party_full: "INDEPENDENT",
      office_full: "President",
      state: "US",
      election_years: [2024],
    };
    expect(candidateRecord(c)).toEqual({
      id: "P80001571",
      title: "DOE, JANE",
      url: "https://www.fec.gov/data/candidate/P80001571/",
      summary: "President · US · INDEPENDENT",
      source: "fec",
      extra: { election_years: [2024] },
    });
    expect(candidateRecord({ candidate_id: "H0XX00001", name: "ROE, R" })).toMatchObject({
      summary: null,
      extra: { election_years: [] },
    });
  });
});
