// A caller's tags on a request, sent as the x-gateway-metadata header: a JSON object of names to short
// values (a user id, a session id, a feature name), kept with the request in the log so the log can be
// filtered and grouped by them. Bounded, so a header cannot grow the log without limit.
import { z } from "zod";

export const TAGS_HEADER = "x-gateway-metadata";
export const MAX_TAGS = 16;
const MAX_HEADER_CHARS = 4096;

export type RequestTags = Record<string, string>;

/** What a tag's name may be: also what the usage dashboards take as the tag to group by. */
export const TAG_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const tagName = z.string().regex(TAG_NAME);
const tagValue = z.union([z.string().max(256), z.number(), z.boolean()]).transform(String);
const tagsSchema = z.record(tagName, tagValue).refine((tags) => Object.keys(tags).length <= MAX_TAGS);

const PROBLEM = `${TAGS_HEADER} must be a JSON object of at most ${MAX_TAGS} tags: names of 1 to 64 letters, digits, _ . or -, each to a string (at most 256 characters), number or boolean`;

/** The tags a header carries, or the problem with it, said as the 400 says it. */
export function parseTags(header: string): { tags: RequestTags } | { problem: string } {
  if (header.length > MAX_HEADER_CHARS) return { problem: `${TAGS_HEADER} is over ${MAX_HEADER_CHARS} characters` };
  let value: unknown;
  try {
    value = JSON.parse(header);
  } catch {
    return { problem: `${TAGS_HEADER} is not JSON; ${PROBLEM}` };
  }
  const parsed = tagsSchema.safeParse(value);
  return parsed.success ? { tags: parsed.data } : { problem: PROBLEM };
}

/** A `name:value` filter as the log's search field takes it; undefined when it is not one. */
export function tagFilter(text: string): { name: string; value: string } | undefined {
  const at = text.indexOf(":");
  if (at < 0) return undefined;
  const name = text.slice(0, at).trim();
  const value = text.slice(at + 1).trim();
  return tagName.safeParse(name).success && value.length <= 256 ? { name, value } : undefined;
}
