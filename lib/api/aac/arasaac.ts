import { GatewayError } from "../../errors.ts";
import type { UpstreamCache } from "../../upstream/cache.ts";
import { UpstreamClient, type UpstreamOptions } from "../../upstream/client.ts";
import { lowerText, normaliseKeyword } from "./normalise.ts";
import { scoreKeywords, SCORES } from "./ranking.ts";
import type { AacSymbol } from "./search.ts";

/** Locales ARASAAC publishes keywords in (its /api/pictograms/{locale}/… paths). */
export const ARASAAC_LANGUAGES = [
  "an",
  "ar",
  "bg",
  "br",
  "ca",
  "de",
  "el",
  "en",
  "es",
  "et",
  "eu",
  "fa",
  "fr",
  "gl",
  "he",
  "hr",
  "hu",
  "it",
  "ko",
  "lt",
  "lv",
  "mk",
  "nl",
  "pl",
  "pt",
  "ro",
  "ru",
  "sk",
  "sq",
  "sr",
  "sv",
  "uk",
  "val",
  "zh",
] as const;
export type ArasaacLanguage = (typeof ARASAAC_LANGUAGES)[number];

// Tags whose ARASAAC locale is not their primary subtag: ARASAAC names Brazilian Portuguese "br"
// and Valencian "val".
const LOCALE_ALIASES: Record<string, ArasaacLanguage> = {
  "pt-br": "br",
  "ca-valencia": "val",
  "ca-es-valencia": "val",
};

/**
 * The ARASAAC locale a client's language tag means, or undefined: case and "_" do not matter, and a
 * region or script is dropped ("ES", "es-ES", "es_MX" → es; "pt-BR" → br; "zh-Hans" → zh).
 */
export function arasaacLocale(tag: string): ArasaacLanguage | undefined {
  const t = tag.trim().toLowerCase().replace(/_/g, "-");
  const locale = LOCALE_ALIASES[t] ?? t.split("-")[0]!;
  return (ARASAAC_LANGUAGES as readonly string[]).includes(locale) ? (locale as ArasaacLanguage) : undefined;
}

export const ARASAAC_LICENSE = "CC BY-NC-SA 4.0";
export const ARASAAC_AUTHOR = "Sergio Palao";
export const ARASAAC_ATTRIBUTION =
  "Pictographic symbols by Sergio Palao, property of the Government of Aragón (Gobierno de Aragón), from ARASAAC (https://arasaac.org), licensed under CC BY-NC-SA 4.0.";

// The client's own GET cache is off: we cache the normalised pictograms instead, which also keeps
// ARASAAC's 404 ("nothing matches") from reaching the upstream again for an hour. One retry with a
// 5 s timeout: a hung ARASAAC costs a caller about 10 s before the 504, not the 24 s of 3 × 8 s.
export const ARASAAC_UPSTREAM: UpstreamOptions = {
  name: "arasaac",
  origin: "https://api.arasaac.org",
  cacheTtlMs: 0,
  timeoutMs: 5_000,
  retries: 1,
};
const CACHE_TTL_MS = 60 * 60_000;
const IMAGE_ORIGIN = "https://static.arasaac.org";

/** What we keep of an ARASAAC pictogram: its id and its keywords (singular, then plurals). */
export type ArasaacPictogram = { id: number; keywords: string[] };

type WirePictogram = { _id?: unknown; keywords?: Array<{ keyword?: unknown; plural?: unknown }> };

const clients = new WeakMap<UpstreamCache, UpstreamClient>();

function clientFor(cache: UpstreamCache): UpstreamClient {
  let client = clients.get(cache);
  if (!client) clients.set(cache, (client = new UpstreamClient(ARASAAC_UPSTREAM, cache)));
  return client;
}

export function pictogramImageUrl(id: number): string {
  return `${IMAGE_ORIGIN}/pictograms/${id}/${id}_300.png`;
}

/**
 * ARASAAC's search payload → our pictograms; anything that is not a pictogram list is a 502. Only
 * positive safe-integer ids are kept, each once, so a result never repeats nor carries an id that
 * JSON clients would round.
 */
export function normalisePictograms(body: unknown): ArasaacPictogram[] {
  if (!Array.isArray(body)) throw new GatewayError(502, "arasaac answered with something that is not a pictogram list");
  const seen = new Set<number>();
  return (body as WirePictogram[]).flatMap((p) => {
    if (typeof p?._id !== "number" || !Number.isSafeInteger(p._id) || p._id < 1 || seen.has(p._id)) return [];
    seen.add(p._id);
    const words = (p.keywords ?? []).filter((k) => typeof k?.keyword === "string" && k.keyword.trim());
    const keywords = [
      ...new Set([
        ...words.map((k) => String(k.keyword).trim()),
        ...words.flatMap((k) => (typeof k.plural === "string" && k.plural.trim() ? [k.plural.trim()] : [])),
      ]),
    ];
    return [{ id: p._id, keywords }];
  });
}

/**
 * GET /api/pictograms/{locale}/search/{text} on ARASAAC. Its 404 means "no pictogram matches" and
 * becomes an empty list; other failures are the upstream client's usual 502/503/504, except that
 * any other 4xx is a 502 too: the caller's query was already valid, so ARASAAC refusing it is an
 * upstream failure, not the caller's bad request.
 */
export async function findPictograms(
  cache: UpstreamCache,
  text: string,
  language: ArasaacLanguage,
): Promise<ArasaacPictogram[]> {
  // Nothing but punctuation names no pictogram; ARASAAC is not asked.
  if (!normaliseKeyword(text)) return [];
  // Lower case without punctuation but with accents is both what ARASAAC is asked and the cache key:
  // "Dog!" and "dog" are one search, "camión" and "camion" are not.
  const query = lowerText(text);
  const key = `aac:arasaac:${language}:${query}`;
  const hit = await cache.get(key);
  if (hit !== undefined) return JSON.parse(hit) as ArasaacPictogram[];
  let pictograms: ArasaacPictogram[];
  try {
    pictograms = normalisePictograms(
      await clientFor(cache).get<unknown>({ path: `/api/pictograms/${language}/search/${encodeURIComponent(query)}` }),
    );
  } catch (err) {
    if (!(err instanceof GatewayError) || err.status >= 500) throw err;
    if (err.status !== 404) throw new GatewayError(502, err.message);
    pictograms = [];
  }
  await cache.set(key, JSON.stringify(pictograms), CACHE_TTL_MS);
  return pictograms;
}

/**
 * ARASAAC pictograms as AAC symbol results, scored by the local ranking over their keywords (a
 * pictogram ARASAAC returned for a reason its keywords do not show scores `upstreamOnly`), best
 * first, ties in ARASAAC's own order.
 */
export function rankPictograms(query: string, pictograms: ArasaacPictogram[]): AacSymbol[] {
  return pictograms
    .map((p) => {
      const match = scoreKeywords(query, p.keywords) ?? { keyword: p.keywords[0] ?? query, score: SCORES.upstreamOnly };
      const url = pictogramImageUrl(p.id);
      return {
        id: p.id,
        word: p.keywords[0] ?? match.keyword,
        keyword: match.keyword,
        keywords: p.keywords,
        icon_url: url,
        url,
        source: "arasaac",
        license: ARASAAC_LICENSE,
        score: match.score,
        author: ARASAAC_AUTHOR,
        attribution: ARASAAC_ATTRIBUTION,
      };
    })
    .sort((a, b) => b.score - a.score);
}
