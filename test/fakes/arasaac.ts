import { Hono } from "hono";
import { listen } from "../support/listen.ts";

export type FakeArasaac = {
  url: string;
  /** Every request path that reached the fake, decoded ("/api/pictograms/en/search/ice cream"). */
  hits: string[];
  close(): Promise<void>;
};

type Keyword = { keyword: string; plural?: string; type: number; hasLocution: boolean };

// The shape ARASAAC's GET /api/pictograms/{locale}/search/{text} returns: an array of pictograms.
const pictogram = (id: number, keywords: Keyword[], categories: string[] = []) => ({
  _id: id,
  keywords,
  schematic: false,
  sex: false,
  violence: false,
  aac: false,
  aacColor: false,
  skin: true,
  hair: true,
  downloads: 0,
  categories,
  synsets: [],
  tags: categories,
  created: "2008-03-12T00:00:00.000Z",
  lastUpdated: "2024-05-20T10:00:00.000Z",
});
const kw = (keyword: string, plural?: string, type = 2): Keyword => ({
  keyword,
  ...(plural ? { plural } : {}),
  type,
  hasLocution: true,
});

const PICTOGRAMS: Record<string, Record<string, ReturnType<typeof pictogram>[]>> = {
  en: {
    dog: [
      pictogram(2517, [kw("puppy", "puppies")], ["animal"]),
      pictogram(7202, [kw("dog", "dogs")], ["animal", "pet"]),
    ],
    want: [pictogram(5441, [kw("want", undefined, 3)])],
    i: [pictogram(6632, [kw("I", undefined, 5), kw("me", undefined, 5)])],
    "ice cream": [pictogram(2400, [kw("ice cream", "ice creams")], ["food"])],
    "thank you": [pictogram(37128, [kw("thank you", undefined, 6)])],
    happy: [pictogram(35533, [kw("happy")]), pictogram(13630, [kw("joy")], ["feeling"])],
  },
  es: {
    perro: [pictogram(7202, [kw("perro", "perros")], ["animal"])],
    camión: [pictogram(2339, [kw("camión", "camiones")], ["transport"])],
  },
  ru: {
    собака: [pictogram(7202, [kw("собака", "собаки")], ["animal"])],
    кошка: [pictogram(7114, [kw("кошка", "кошки")], ["animal"])],
  },
};

/**
 * ARASAAC's pictogram search on loopback. Unknown words answer 404, as ARASAAC does when nothing
 * matches; the word "boom" (or every request, with `status`) answers that error status instead,
 * and "refuse" answers 400, as ARASAAC refusing a search it cannot handle would.
 */
export async function startFakeArasaac(options: { status?: number } = {}): Promise<FakeArasaac> {
  const hits: string[] = [];
  const app = new Hono();
  app.get("/api/pictograms/:locale/search/:text", (c) => {
    const locale = c.req.param("locale");
    // Hits record the text as sent, so tests see exactly what the gateway asked for.
    hits.push(`/api/pictograms/${locale}/search/${c.req.param("text")}`);
    const text = c.req.param("text").toLowerCase();
    if (options.status) return c.json({ error: "fake failure" }, options.status as 500);
    if (text === "boom") return c.json({ error: "internal error" }, 500);
    if (text === "refuse") return c.json({ error: "bad request" }, 400);
    const found = PICTOGRAMS[locale]?.[text];
    if (!found) return c.json({ error: "Not found" }, 404);
    return c.json(found);
  });
  const { url, close } = await listen(app.fetch);
  return { url, hits, close };
}
