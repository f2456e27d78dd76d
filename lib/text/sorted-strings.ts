/**
 * The position of the first string not below `key` in an ascending list (its length when there is
 * none): where the strings starting with `key` begin, if any do.
 */
export function firstAtLeast(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
