import { describe, expect, it } from "vitest";
import { animeRecord } from "./normalise.ts";

describe("mal records", () => {
  it("link the anime's page and carry score, type, episodes and picture", () => {
    const node = {
      id: 5114,
      title: "Fullmetal Alchemist: Brotherhood",
      synopsis: "Two brothers…",
      mean: 9.1,
      start_date: "2009-04-05",
      media_type: "tv",
      num_episodes: 64,
      main_picture: { medium: "https://cdn.myanimelist.net/images/anime/1223/96541.jpg" },
    };
    expect(animeRecord(node)).toEqual({
      id: "5114",
      title: "Fullmetal Alchemist: Brotherhood",
      url: "https://myanimelist.net/anime/5114",
      summary: "Two brothers…",
      published: "2009-04-05",
      source: "mal",
      extra: { score: 9.1, type: "tv", episodes: 64, image: "https://cdn.myanimelist.net/images/anime/1223/96541.jpg" },
    });
    expect(animeRecord({ id: 1, title: "Cowboy Bebop" })).toMatchObject({
      summary: null,
      published: null,
      extra: { score: null, type: null, episodes: null, image: null },
    });
  });
});
