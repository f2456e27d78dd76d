import { describe, expect, it } from "vitest";
import { formatCitation, toCsl } from "./citations.ts";

const turing = {
  title: "On computable numbers, with an application to the Entscheidungsproblem",
  authors: ["Alan Turing"],
  year: 1936,
  journal: "Proceedings of the London Mathematical Society",
  doi: "https://doi.org/10.1112/plms/s2-42.1.230",
};

describe("formatCitation", () => {
  it("formats a journal article in each CSL style", () => {
    expect(formatCitation(turing, "apa").citation).toBe(
      "Turing, A. (1936). On computable numbers, with an application to the Entscheidungsproblem. Proceedings of the London Mathematical Society. https://doi.org/10.1112/plms/s2-42.1.230",
    );
    expect(formatCitation(turing, "mla").citation).toMatch(
      /^Turing, Alan\. “On Computable Numbers, with an Application to the Entscheidungsproblem\.” Proceedings/,
    );
    expect(formatCitation(turing, "chicago").citation).toMatch(/^Turing, Alan\. 1936\. “On Computable Numbers/);
    expect(formatCitation(turing, "harvard").citation).toMatch(/^Turing, A\. \(1936\) ‘On computable numbers/);
  });

  it("gives HTML with the journal in italics", () => {
    expect(formatCitation(turing, "apa").html).toContain("<i>Proceedings of the London Mathematical Society</i>");
  });

  it("writes BibTeX", () => {
    const { citation, html } = formatCitation(turing, "bibtex");
    expect(citation).toMatch(/^@article\{Turing1936/);
    expect(citation).toContain("doi = {10.1112/plms/s2-42.1.230}");
    expect(html).toBeNull();
  });

  it("reads Form A's single author string and a web page", () => {
    const item = toCsl({
      title: "Web Accessibility",
      author: "Tim Berners-Lee and Jane Doe",
      year: "2020",
      url: "https://w3.org/wai",
    });
    expect(item.type).toBe("webpage");
    expect(item.author).toEqual([
      { given: "Tim", family: "Berners-Lee" },
      { given: "Jane", family: "Doe" },
    ]);
    expect(
      formatCitation(
        { title: "Web Accessibility", author: "Tim Berners-Lee", year: 2020, url: "https://w3.org/wai" },
        "apa",
      ).citation,
    ).toContain("https://w3.org/wai");
  });
});
