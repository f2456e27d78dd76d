import type { SearchRecord } from "../source.ts";
import type { Anime } from "./client.ts";

/** An anime as a record: score, type, episodes and picture as extras. */
export const animeRecord = (a: Anime): SearchRecord => ({
  id: String(a.id),
  title: a.title,
  url: `https://myanimelist.net/anime/${a.id}`,
  summary: a.synopsis ?? null,
  published: a.start_date ?? null,
  source: "mal",
  extra: {
    score: a.mean ?? null,
    type: a.media_type ?? null,
    episodes: a.num_episodes ?? null,
    image: a.main_picture?.medium ?? null,
  },
});
