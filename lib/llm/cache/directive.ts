// What a request's standard `Cache-Control` header asks of the response cache (RFC 9111's request
// directives): `max-age=N` accepts an answer stored up to N seconds ago, `no-cache` asks for a fresh
// answer (which is then stored), `no-store` keeps the request and its answer out of the cache
// altogether. Directives the cache has no use for, and malformed ones, are ignored, as HTTP caches do.

export type CacheDirective = {
  /** Seconds of age accepted; 0 reads nothing. */
  maxAgeS: number;
  /** Whether the answer may be stored. */
  store: boolean;
};

// Longer than any TTL an operator sets: a larger max-age means "any age".
const MAX_AGE_CAP_S = 10 * 365 * 86_400;

/**
 * The cache's part of the header; undefined when it asks nothing of the cache (no header, or no
 * directive the cache reads). `fallback` is what a request that says nothing gets (an alias's policy);
 * a request's own directive wins over it, `no-store` included.
 */
export function cacheDirective(header: string | undefined, fallback?: CacheDirective): CacheDirective | undefined {
  if (header === undefined) return fallback;
  let maxAgeS: number | undefined;
  let noCache = false;
  for (const part of header.split(",")) {
    const [name, value] = part.trim().toLowerCase().split("=", 2);
    if (name === "no-store") return undefined;
    if (name === "no-cache") noCache = true;
    else if (name === "max-age" && value !== undefined && /^\d{1,12}$/.test(value.replace(/^"|"$/g, "")))
      maxAgeS = Math.min(Number(value.replace(/^"|"$/g, "")), MAX_AGE_CAP_S);
  }
  if (noCache) return { maxAgeS: 0, store: true };
  return maxAgeS === undefined ? fallback : { maxAgeS, store: true };
}
