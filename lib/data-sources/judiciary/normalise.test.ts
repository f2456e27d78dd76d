import { describe, expect, it } from "vitest";
import { hitRecord } from "./normalise.ts";

describe("judiciary records", () => {
  it("take the cluster id, the court's page and the first opinion's snippet", () => {
    const hit = {
      caseName: "Marbury v. Madison",
      court: "Supreme Court of the United States",
      dateFiled: "1803-02-24",
      absolute_url: "/opinion/84759/marbury-v-madison/",
      cluster_id: 84759,
      docketNumber: "",
      citation: ["5 U.S. 137"],
      opinions: [{ snippet: "  It is emphatically the province and duty of the judicial department.  " }],
    };
    expect(hitRecord(hit)).toEqual({
      id: "84759",
      title: "Marbury v. Madison",
      url: "https://www.courtlistener.com/opinion/84759/marbury-v-madison/",
      summary: "It is emphatically the province and duty of the judicial department.",
      published: "1803-02-24",
      source: "judiciary",
      extra: { court: "Supreme Court of the United States", docket: "", citations: ["5 U.S. 137"] },
    });
    expect(
      hitRecord({ caseName: "X", absolute_url: "/o/1/", cluster_id: 1, opinions: [{ snippet: " " }] }),
    ).toMatchObject({ summary: null, published: null, extra: { court: null, docket: null, citations: [] } });
  });
});
