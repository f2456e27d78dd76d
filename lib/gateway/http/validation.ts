import type { ZodError } from "zod";
import { GatewayError } from "../../errors.ts";
import { findUnsafeText, toSafeText, type UnsafeTextAt } from "./safe-text.ts";

/**
 * Every input passes here (the pipeline's validation, and input a handler parses itself: a tool's
 * arguments, chosen by name at run time): the schema's verdict as a 400 naming the fields, then no
 * NULs or lone surrogates, which this one rule keeps out of the database, headers and upstream URLs.
 * Keys and fields the schema dropped are never checked.
 */
export function acceptInput<T>(
  parsed: { success: true; data: T } | { success: false; error: ZodError },
  target: string,
): T {
  if (!parsed.success) throw new GatewayError(400, describeValidationError(parsed.error));
  const unsafe = findUnsafeText(parsed.data);
  if (unsafe) throw new GatewayError(400, describeUnsafeText(unsafe, target));
  return parsed.data;
}

/** "invalid request: messages: expected array, received undefined; temperature: ..." — names every field. */
export function describeValidationError(error: ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length ? issue.path.join(".") : "body";
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return `invalid request: ${parts.join("; ")}${more}`;
}

/**
 * The 400 message for input holding text the database and URLs cannot carry (see safe-text.ts),
 * naming the field: "invalid request: messages.0.content: ...". `target` names a top-level value.
 */
export function describeUnsafeText(at: UnsafeTextAt, target: string): string {
  const where = at.path.length ? at.path.map((p) => (typeof p === "string" ? toSafeText(p) : p)).join(".") : target;
  const what = at.inKey ? "an object key" : "the text";
  return `invalid request: ${where}: ${what} contains a NUL character or an unpaired surrogate (\\u0000, \\ud800-\\udfff), which are not accepted`;
}
