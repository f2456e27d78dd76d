import { describe, expect, it } from "vitest";
import { mastodonTags } from "./mastodon-tags.ts";

describe("mastodonTags", () => {
  it("joins plain words into one tag, as hashtags are written", () => {
    expect(mastodonTags("API gateway")).toEqual(["apigateway"]);
    expect(mastodonTags("café-crème!")).toEqual(["cafécrème"]);
  });

  it("uses the hashtags written in the query, at most five, without repeats", () => {
    expect(mastodonTags("news about #A11y and #aac #a11y")).toEqual(["a11y", "aac"]);
    expect(mastodonTags("#a #b #c #d #e #f")).toHaveLength(5);
  });

  it("finds no tag in punctuation alone", () => {
    expect(mastodonTags("?!")).toEqual([]);
  });
});
