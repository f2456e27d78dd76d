import type { Linguistics } from "./dataset.ts";
import { phonemeRowCount } from "./phoible.ts";

/** Licence and required attribution of each shipped dataset, worded as data/SOURCE.md gives them. */
export const SOURCES = [
  {
    name: "Glottolog",
    version: "5.1 (endangerment from the development tree after 5.3)",
    provides: "languages, classification, macroareas, coordinates, endangerment status",
    license: "CC BY 4.0",
    license_url: "https://creativecommons.org/licenses/by/4.0/",
    url: "https://glottolog.org",
    citation:
      "Hammarström, Harald & Forkel, Robert & Haspelmath, Martin & Bank, Sebastian. 2024. Glottolog 5.1. Leipzig: Max Planck Institute for Evolutionary Anthropology. (Available online at https://glottolog.org) — https://doi.org/10.5281/zenodo.596479",
  },
  {
    name: "WALS",
    version: "v2020.4 (cldf-datasets/wals)",
    provides: "typological features (parameters), their values and each language's values",
    license: "CC BY 4.0",
    license_url: "https://creativecommons.org/licenses/by/4.0/",
    url: "https://wals.info",
    citation:
      "Dryer, Matthew S. & Haspelmath, Martin (eds.) 2013. The World Atlas of Language Structures Online. Leipzig: Max Planck Institute for Evolutionary Anthropology. (Available online at https://wals.info)",
  },
  {
    name: "PHOIBLE",
    version: "2.0 (per-phoneme table rebuilt from phoible/dev raw data)",
    provides: "phoneme inventories and segments",
    license: "CC BY 4.0 (PHOIBLE CLDF dataset); aggregated data MIT, Copyright (c) 2015 PHOIBLE",
    license_url: "https://creativecommons.org/licenses/by/4.0/",
    url: "https://phoible.org",
    citation:
      "Moran, Steven & McCloy, Daniel (eds.) 2019. PHOIBLE 2.0. Jena: Max Planck Institute for the Science of Human History. (Available online at http://phoible.org). DOI: 10.5281/zenodo.2626687",
  },
];

export const ENDPOINTS = [
  { method: "GET", path: "/v1/linguistics/", description: "This overview: coverage, endpoints, sources" },
  {
    method: "GET",
    path: "/v1/linguistics/languages",
    description: "Languages, filtered by family, region (macroarea) and status (endangerment), paged",
  },
  {
    method: "GET",
    path: "/v1/linguistics/languages/{code}",
    description: "One language by ISO 639-3 code or glottocode, with WALS features and PHOIBLE inventory",
  },
  {
    method: "GET",
    path: "/v1/linguistics/phonemes",
    description: "Phonemes across inventories, or one language's, by type, manner and place",
  },
  {
    method: "GET",
    path: "/v1/linguistics/features",
    description: "WALS features with value distributions, or one language's values",
  },
  { method: "GET", path: "/v1/linguistics/search", description: "Search languages, phonemes and features" },
];

/** Counts of what is loaded, so the overview can never drift from the data actually served. */
export function coverage(data: Linguistics) {
  return {
    languages: data.glottolog.languages.length,
    languages_with_iso639_3: data.glottolog.byIso.size,
    phonemes: phonemeRowCount(data.phoible),
    phoneme_inventories: data.phoible.inventories.length,
    segments: data.phoible.segments.length,
    wals_parameters: data.wals.parameters.length,
    wals_languages: data.wals.languages.length,
    wals_datapoints: data.wals.datapointCount,
  };
}
