import { GatewayError } from "../../errors.ts";
import { classifyLanguageCode, type Language, type LanguageIndex } from "./glottolog.ts";
import { describeInventory, inventoriesOf, type PhonemeIndex } from "./phoible.ts";
import { datapointRecord, languageDatapoints, walsLanguagesOf, type WalsIndex } from "./wals.ts";

/**
 * A language as the other datasets can be joined to it. Most come from Glottolog; a code Glottolog
 * does not list as a language (e.g. hrv, which it merges into Serbo-Croatian) still resolves when
 * PHOIBLE or WALS carry it, so their data stays reachable.
 */
export type LanguageRef = { iso639_3: string | null; glottocode: string | null; name: string; record: Language | null };

type Sources = { glottolog: LanguageIndex; phoible?: PhonemeIndex; wals?: WalsIndex };

/** Resolves an ISO 639-3 code or glottocode (any case); 400 when it is neither shape, 404 when nobody knows it. */
export function resolveLanguage(sources: Sources, code: string): LanguageRef {
  const lower = code.trim().toLowerCase();
  const kind = classifyLanguageCode(lower);
  if (!kind)
    throw new GatewayError(400, `'${code}' is not an ISO 639-3 code (three letters) or a glottocode (e.g. stan1293)`);
  const record = kind === "iso639_3" ? sources.glottolog.byIso.get(lower) : sources.glottolog.byGlottocode.get(lower);
  if (record) return { iso639_3: record.iso639_3, glottocode: record.glottocode, name: record.name, record };

  const inventory =
    sources.phoible && (kind === "iso639_3" ? sources.phoible.byIso : sources.phoible.byGlottocode).get(lower)?.[0];
  if (sources.phoible && inventory !== undefined) {
    const inv = sources.phoible.inventories[inventory]!;
    return {
      iso639_3: inv.iso639_3,
      glottocode: classifyLanguageCode(inv.glottocode ?? "") ? inv.glottocode : null,
      name: inv.language_name,
      record: null,
    };
  }
  const wals = sources.wals && (kind === "iso639_3" ? sources.wals.byIso : sources.wals.byGlottocode).get(lower)?.[0];
  if (wals) return { iso639_3: wals.iso639_3, glottocode: wals.glottocode, name: wals.name, record: null };
  throw new GatewayError(404, `unknown language '${code}'`);
}

/**
 * Which inventory to show in full: the one chosen by the caller, else the first (lowest id) filed
 * under the language's own glottocode, else the first filed under its ISO code (often a dialect's).
 */
function primaryInventory(
  phoible: PhonemeIndex,
  positions: number[],
  ref: LanguageRef,
  chosen?: number,
): number | null {
  if (chosen !== undefined) {
    const found = positions.find((p) => phoible.inventories[p]!.inventory_id === chosen);
    if (found === undefined)
      throw new GatewayError(404, `inventory ${chosen} is not an inventory of '${ref.iso639_3 ?? ref.glottocode}'`);
    return found;
  }
  return positions.find((p) => phoible.inventories[p]!.glottocode === ref.glottocode) ?? positions[0] ?? null;
}

/** Everything the gateway knows about one language: Glottolog record, WALS values, PHOIBLE inventory. */
export function languageProfile(sources: Required<Sources>, ref: LanguageRef, options: { inventory?: number } = {}) {
  const record = ref.record;
  const walsLanguages = walsLanguagesOf(sources.wals, ref);
  const positions = inventoriesOf(sources.phoible, ref);
  const primary = primaryInventory(sources.phoible, positions, ref, options.inventory);
  return {
    iso: ref.iso639_3,
    glottocode: ref.glottocode,
    name: ref.name,
    in_glottolog: record !== null,
    family: record?.family ?? null,
    family_glottocode: record?.family_id ?? null,
    is_isolate: record?.is_isolate ?? null,
    classification: record?.classification ?? [],
    category: record?.category ?? null,
    region: record?.macroarea ?? null,
    countries: record?.countries ?? [],
    status: record?.endangerment ?? null,
    status_source: record?.endangerment_source ?? null,
    latitude: record?.latitude ?? null,
    longitude: record?.longitude ?? null,
    wals_languages: walsLanguages.map((l) => ({
      wals_code: l.wals_code,
      name: l.name,
      family: l.family,
      genus: l.genus,
    })),
    wals_features: languageDatapoints(sources.wals, walsLanguages, {}).map(datapointRecord),
    phoneme_inventory: primary === null ? null : describeInventory(sources.phoible, primary),
    phoneme_inventories: positions.map((p) => {
      const inv = sources.phoible.inventories[p]!;
      return {
        inventory_id: inv.inventory_id,
        source: inv.source,
        language_name: inv.language_name,
        count_phonemes: inv.count_phonemes,
      };
    }),
  };
}
