import type { ZodError } from "zod";

/** "invalid request: messages: expected array, received undefined; temperature: ..." — names every field. */
export function describeValidationError(error: ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const where = issue.path.length ? issue.path.join(".") : "body";
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : "";
  return `invalid request: ${parts.join("; ")}${more}`;
}
