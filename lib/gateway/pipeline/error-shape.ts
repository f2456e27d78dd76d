/** An error answer's body as the gateway writes it: Form A `{error}` or Form B `{error: {code, message}}`. */
export type ErrorBody = { error?: string | { message?: unknown; code?: unknown } };

/**
 * An error answer in another shape (a compatible surface's: OpenAI's, Anthropic's), or null to leave
 * it as the gateway wrote it. The status and headers stay the same.
 */
export type ErrorShape = (status: number, body: ErrorBody | null) => Record<string, unknown> | null;

/** The message of an error of the gateway's (Form A `{error}` or Form B `{error: {code, message}}`), if it is one. */
export function gatewayErrorMessage(body: ErrorBody | null): string | undefined {
  const e = body?.error;
  return typeof e === "string" ? e : typeof e?.message === "string" ? e.message : undefined;
}
