import { fileUnderCodes, filedUnderCodes, push, type LanguageCodes } from "./code-index.ts";
import { foldText } from "./text-match.ts";

export const SEGMENT_TYPES = ["consonant", "vowel", "tone"] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

/** The derived consonant manners in the shipped PHOIBLE table (see data/SOURCE.md). */
export const MANNERS = [
  "stop",
  "fricative",
  "affricate",
  "nasal",
  "trill",
  "tap",
  "approximant",
  "lateral approximant",
  "lateral fricative",
  "lateral affricate",
  "lateral stop",
  "click",
  "prenasalized stop",
  "prenasalized affricate",
  "prenasalized fricative",
  "prenasalized nasal",
  "prenasalized tap",
  "prenasalized trill",
  "prenasalized approximant",
  "prenasalized lateral approximant",
  "prenasalized lateral stop",
  "prenasalized lateral affricate",
  "prenasalized lateral fricative",
] as const;
export type Manner = (typeof MANNERS)[number];

export const PLACES = [
  "bilabial",
  "labiodental",
  "linguolabial",
  "dental",
  "alveolar",
  "postalveolar",
  "retroflex",
  "alveolo-palatal",
  "palatal",
  "velar",
  "labial-velar",
  "uvular",
  "pharyngeal",
  "glottal",
] as const;
export type Place = (typeof PLACES)[number];

/** One row of data/phoible_phonemes.csv.gz: a phoneme in one inventory. */
export type PhonemeRow = {
  inventory_id: number;
  segment: string;
  segment_class: SegmentType;
  marginal: boolean;
  manner: string | null;
  place: string | null;
  voiced: boolean | null;
  airstream: string | null;
  height: string | null;
  backness: string | null;
  rounded: boolean | null;
};

/** One record of data/phoible_inventories.json; its `segments` list is dropped, the rows carry them. */
export type InventoryRecord = {
  inventory_id: number;
  glottocode: string | null;
  iso639_3: string | null;
  language_name: string;
  source: string;
  source_refs: string[];
  url: string | null;
  count_phonemes: number;
  count_consonants: number;
  count_vowels: number;
  count_tones: number;
};

/** A distinct segment with what every inventory agrees on, and how widespread it is. */
export type Segment = {
  segment: string;
  type: SegmentType;
  manner: string | null;
  place: string | null;
  voiced: boolean | null;
  airstream: string | null;
  height: string | null;
  backness: string | null;
  rounded: boolean | null;
  /** Inventories that contain it. */
  inventories: number;
  /** Distinct glottocodes among those inventories. */
  languages: number;
  /** "voiceless bilabial stop", "close front unrounded vowel": what search matches besides the symbol. */
  label: string;
};

export type PhonemeIndex = {
  /** Distinct segments, most widespread first. */
  segments: Segment[];
  inventories: InventoryRecord[];
  /** Phoneme rows, grouped by inventory: rows inventoryStart[i] .. inventoryStart[i+1]-1 belong to inventories[i]. */
  rowSegment: Uint16Array;
  rowMarginal: Uint8Array;
  inventoryStart: Uint32Array;
  /** Inventory positions by ISO 639-3 code and by glottocode. */
  byIso: Map<string, number[]>;
  byGlottocode: Map<string, number[]>;
  byType: Map<SegmentType, Segment[]>;
  byManner: Map<string, Segment[]>;
  byPlace: Map<string, Segment[]>;
};

function segmentLabel(row: PhonemeRow): string {
  if (row.segment_class === "tone") return "tone";
  if (row.segment_class === "vowel") {
    const rounding = row.rounded === null ? null : row.rounded ? "rounded" : "unrounded";
    return [row.height, row.backness, rounding, "vowel"].filter(Boolean).join(" ");
  }
  const voicing = row.voiced === null ? null : row.voiced ? "voiced" : "voiceless";
  const airstream = row.airstream && row.airstream !== "pulmonic" && row.airstream !== "click" ? row.airstream : null;
  return [voicing, row.place, airstream, row.manner ?? "consonant"].filter(Boolean).join(" ");
}

/**
 * A CSV parser hands out slices of the whole file's text, and V8 keeps the whole text alive for as
 * long as any slice is; the few rows kept for good get their own copies.
 */
function detachStrings(row: PhonemeRow): PhonemeRow {
  return JSON.parse(JSON.stringify(row)) as PhonemeRow;
}

/**
 * Collects phoneme rows one at a time (so the CSV never has to be held as objects) and then builds
 * the compact index: one typed-array slot per row, one record per distinct segment.
 */
export function createPhonemeIndexBuilder(inventories: InventoryRecord[]) {
  const sorted = [...inventories].sort((a, b) => a.inventory_id - b.inventory_id);
  const position = new Map(sorted.map((inv, i) => [inv.inventory_id, i]));
  const segmentIds = new Map<string, number>();
  const segmentRows: PhonemeRow[] = [];
  const rowInventory: number[] = [];
  const rowSegment: number[] = [];
  const rowMarginal: number[] = [];

  return {
    add(row: PhonemeRow): void {
      const inv = position.get(row.inventory_id);
      if (inv === undefined) throw new Error(`phoneme row names unknown inventory ${row.inventory_id}`);
      let id = segmentIds.get(row.segment);
      if (id === undefined) {
        id = segmentRows.length;
        segmentIds.set(row.segment, id);
        segmentRows.push(detachStrings(row));
      }
      rowInventory.push(inv);
      rowSegment.push(id);
      rowMarginal.push(row.marginal ? 1 : 0);
    },

    build(): PhonemeIndex {
      // Counting sort by inventory, so each inventory's phonemes are one contiguous slice.
      const inventoryStart = new Uint32Array(sorted.length + 1);
      for (const inv of rowInventory) inventoryStart[inv + 1]! += 1;
      for (let i = 0; i < sorted.length; i++) inventoryStart[i + 1]! += inventoryStart[i]!;
      const cursor = inventoryStart.slice(0, sorted.length);
      const segmentsByRow = new Uint16Array(rowSegment.length);
      const marginalByRow = new Uint8Array(rowSegment.length);
      for (let r = 0; r < rowSegment.length; r++) {
        const at = cursor[rowInventory[r]!]!++;
        segmentsByRow[at] = rowSegment[r]!;
        marginalByRow[at] = rowMarginal[r]!;
      }

      const languageIds = new Map<string, number>();
      const inventoryLanguage = sorted.map((inv) => {
        const key = inv.glottocode ?? `iso:${inv.iso639_3}`;
        if (!languageIds.has(key)) languageIds.set(key, languageIds.size);
        return languageIds.get(key)!;
      });
      const inventoriesPerSegment = new Uint32Array(segmentRows.length);
      const languagesPerSegment = new Uint32Array(segmentRows.length);
      const seen = new Set<number>();
      for (let inv = 0; inv < sorted.length; inv++) {
        for (let r = inventoryStart[inv]!; r < inventoryStart[inv + 1]!; r++) {
          const seg = segmentsByRow[r]!;
          inventoriesPerSegment[seg]! += 1;
          const pair = seg * languageIds.size + inventoryLanguage[inv]!;
          if (!seen.has(pair)) {
            seen.add(pair);
            languagesPerSegment[seg]! += 1;
          }
        }
      }

      const byId: Segment[] = segmentRows.map((row, id) => ({
        segment: row.segment,
        type: row.segment_class,
        manner: row.manner,
        place: row.place,
        voiced: row.voiced,
        airstream: row.airstream,
        height: row.height,
        backness: row.backness,
        rounded: row.rounded,
        inventories: inventoriesPerSegment[id]!,
        languages: languagesPerSegment[id]!,
        label: foldText(segmentLabel(row)),
      }));
      // Rows refer to segments by id; reorder the ids so id order is also "most widespread first".
      const order = byId
        .map((_, id) => id)
        .sort((a, b) => byId[b]!.inventories - byId[a]!.inventories || (byId[a]!.segment < byId[b]!.segment ? -1 : 1));
      const newId = new Uint16Array(order.length);
      order.forEach((oldId, i) => (newId[oldId] = i));
      for (let r = 0; r < segmentsByRow.length; r++) segmentsByRow[r] = newId[segmentsByRow[r]!]!;
      const segments = order.map((oldId) => byId[oldId]!);

      const index: PhonemeIndex = {
        segments,
        inventories: sorted,
        rowSegment: segmentsByRow,
        rowMarginal: marginalByRow,
        inventoryStart,
        byIso: new Map(),
        byGlottocode: new Map(),
        byType: new Map(),
        byManner: new Map(),
        byPlace: new Map(),
      };
      sorted.forEach((inv, i) => fileUnderCodes(index, inv, i));
      for (const segment of segments) {
        push(index.byType, segment.type, segment);
        if (segment.manner) push(index.byManner, segment.manner, segment);
        if (segment.place) push(index.byPlace, segment.place, segment);
      }
      return index;
    },
  };
}

/** Number of phoneme rows (one per phoneme per inventory) held by the index. */
export function phonemeRowCount(index: PhonemeIndex): number {
  return index.rowSegment.length;
}

/** Positions of the inventories of a language, found by its ISO code or its glottocode, in inventory-id order. */
export function inventoriesOf(index: PhonemeIndex, language: LanguageCodes): number[] {
  return filedUnderCodes(index, language).sort((a, b) => a - b);
}

export type InventoryPhoneme = { segment: Segment; marginal: boolean };

export function inventoryPhonemes(index: PhonemeIndex, position: number): InventoryPhoneme[] {
  const out: InventoryPhoneme[] = [];
  for (let r = index.inventoryStart[position]!; r < index.inventoryStart[position + 1]!; r++) {
    out.push({ segment: index.segments[index.rowSegment[r]!]!, marginal: index.rowMarginal[r] === 1 });
  }
  return out;
}

/** An inventory with its segments grouped the way a reader scans an inventory: consonants, vowels, tones. */
export function describeInventory(index: PhonemeIndex, position: number) {
  const inv = index.inventories[position]!;
  const grouped: Record<SegmentType, string[]> = { consonant: [], vowel: [], tone: [] };
  const marginal: string[] = [];
  for (const { segment, marginal: isMarginal } of inventoryPhonemes(index, position)) {
    grouped[segment.type].push(segment.segment);
    if (isMarginal) marginal.push(segment.segment);
  }
  return {
    inventory_id: inv.inventory_id,
    source: inv.source,
    source_refs: inv.source_refs,
    url: inv.url,
    language_name: inv.language_name,
    counts: {
      phonemes: inv.count_phonemes,
      consonants: inv.count_consonants,
      vowels: inv.count_vowels,
      tones: inv.count_tones,
    },
    consonants: grouped.consonant,
    vowels: grouped.vowel,
    tones: grouped.tone,
    marginal,
  };
}

export type SegmentFilters = { type?: SegmentType; manner?: Manner; place?: Place };

function matchesFilters(segment: Segment, filters: SegmentFilters): boolean {
  return (
    (!filters.type || segment.type === filters.type) &&
    (!filters.manner || segment.manner === filters.manner) &&
    (!filters.place || segment.place === filters.place)
  );
}

/** Distinct segments matching the filters, most widespread first. */
export function filterSegments(index: PhonemeIndex, filters: SegmentFilters): Segment[] {
  const start = filters.manner
    ? (index.byManner.get(filters.manner) ?? [])
    : filters.place
      ? (index.byPlace.get(filters.place) ?? [])
      : filters.type
        ? (index.byType.get(filters.type) ?? [])
        : index.segments;
  return start.filter((segment) => matchesFilters(segment, filters));
}

export type LanguageSegment = { segment: Segment; inventories: number; marginal: boolean };

/**
 * The segments found in any of the given inventories (one language's), each with how many of those
 * inventories list it; marginal only when every inventory listing it marks it marginal.
 */
export function languageSegments(index: PhonemeIndex, positions: number[], filters: SegmentFilters): LanguageSegment[] {
  const found = new Map<Segment, LanguageSegment>();
  for (const position of positions) {
    for (const { segment, marginal } of inventoryPhonemes(index, position)) {
      if (!matchesFilters(segment, filters)) continue;
      const entry = found.get(segment);
      if (entry) {
        entry.inventories += 1;
        entry.marginal &&= marginal;
      } else {
        found.set(segment, { segment, inventories: 1, marginal });
      }
    }
  }
  const typeOrder: Record<SegmentType, number> = { consonant: 0, vowel: 1, tone: 2 };
  return [...found.values()].sort(
    (a, b) =>
      typeOrder[a.segment.type] - typeOrder[b.segment.type] ||
      b.inventories - a.inventories ||
      b.segment.inventories - a.segment.inventories,
  );
}

/** The public shape of a segment (the search label stays internal). */
export function segmentRecord(segment: Segment, inventoryCount: number) {
  return {
    segment: segment.segment,
    type: segment.type,
    manner: segment.manner,
    place: segment.place,
    voiced: segment.voiced,
    airstream: segment.airstream,
    height: segment.height,
    backness: segment.backness,
    rounded: segment.rounded,
    description: segment.label,
    inventories: segment.inventories,
    languages: segment.languages,
    frequency: Math.round((segment.inventories / inventoryCount) * 10000) / 10000,
  };
}
