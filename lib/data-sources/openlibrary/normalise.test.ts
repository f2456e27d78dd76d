import { describe, expect, it } from "vitest";
import { bookView, workRecord } from "./normalise.ts";

describe("openlibrary", () => {
  it("makes a search's work a record with at most five ISBNs and a cover", () => {
    const doc = {
      key: "/works/OL45883W",
      title: "The Lord of the Rings",
      author_name: ["J.R.R. Tolkien"],
      first_publish_year: 1954,
      isbn: ["1", "2", "3", "4", "5", "6"],
      edition_count: 120,
      cover_i: 9255566,
    };
    expect(workRecord(doc)).toEqual({
      id: "OL45883W",
      title: "The Lord of the Rings",
      url: "https://openlibrary.org/works/OL45883W",
      summary: null,
      authors: ["J.R.R. Tolkien"],
      published: "1954",
      source: "openlibrary",
      extra: {
        isbn: ["1", "2", "3", "4", "5"],
        edition_count: 120,
        cover: "https://covers.openlibrary.org/b/id/9255566-M.jpg",
      },
    });
  });

  it("shows an edition with the year read from its publish date", () => {
    const edition = {
      title: "The Lord of the Rings",
      authors: [{ key: "/authors/OL26320A" }],
      publish_date: "July 1991",
      publishers: ["HarperCollins"],
      number_of_pages: 1137,
    };
    expect(bookView("9780261102385", edition, ["J.R.R. Tolkien"])).toEqual({
      isbn: "9780261102385",
      title: "The Lord of the Rings",
      authors: ["J.R.R. Tolkien"],
      year: 1991,
      publishers: ["HarperCollins"],
      pages: 1137,
      url: "https://openlibrary.org/isbn/9780261102385",
      cover: "https://covers.openlibrary.org/b/isbn/9780261102385-M.jpg",
    });
    expect(bookView("0306406152", { title: "T", publish_date: "n.d." }, [])).toMatchObject({
      year: null,
      publishers: [],
      pages: null,
    });
  });
});
