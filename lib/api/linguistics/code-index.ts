/** Appends `value` to the list under `key`, starting the list if there is none. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The two codes a language may be known by; either may be missing. */
export type LanguageCodes = { iso639_3: string | null; glottocode: string | null };

/** Entries filed under the ISO 639-3 code and under the glottocode of the language each describes. */
export type CodeIndex<V> = { byIso: Map<string, V[]>; byGlottocode: Map<string, V[]> };

/** Files `value` under each code its language has. */
export function fileUnderCodes<V>(index: CodeIndex<V>, codes: LanguageCodes, value: V): void {
  if (codes.iso639_3) push(index.byIso, codes.iso639_3, value);
  if (codes.glottocode) push(index.byGlottocode, codes.glottocode, value);
}

/** The entries filed under either of a language's codes, each once, unsorted. */
export function filedUnderCodes<V>(index: CodeIndex<V>, codes: LanguageCodes): V[] {
  const found = new Set<V>([
    ...(codes.glottocode ? (index.byGlottocode.get(codes.glottocode) ?? []) : []),
    ...(codes.iso639_3 ? (index.byIso.get(codes.iso639_3) ?? []) : []),
  ]);
  return [...found];
}
