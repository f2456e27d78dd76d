/** Letters, digits and underscores: what a Mastodon hashtag is made of. */
const TAG_CHARS = /[^\p{L}\p{N}_]/gu;
const MAX_TAGS = 5;

/**
 * The hashtags an anonymous Mastodon search follows, since full-text search gives logged-out callers
 * no statuses. Hashtags written in the query (`#a11y #aac`) are used as given; otherwise the words
 * are joined into one tag, as people write them ("api gateway" → apigateway). Lower case, at most 5.
 */
export function mastodonTags(query: string): string[] {
  const written = [...query.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!);
  const tags = written.length ? written : [query.replace(TAG_CHARS, "")];
  return [...new Set(tags.map((t) => t.toLowerCase()).filter(Boolean))].slice(0, MAX_TAGS);
}
