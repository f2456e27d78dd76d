import type { ZodError } from "zod";
import { toSafeText, type UnsafeTextAt } from "./safe-text.ts";

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
