import type { Operation } from "./openapi-operations.ts";
import type { ResponseSchemas } from "./response-schemas.ts";

export type Answer = {
  status: number;
  contentType: string;
  body: Buffer;
  /** Set when no complete answer came: the timeout, or the connection failed. */
  failure?: string;
  /** No answer in the time an answer may take. */
  timedOut?: boolean;
};

/** Statuses an operation may answer with 5xx: only upstream ones it declares (it depends on a service). */
const UPSTREAM_STATUSES = new Set([502, 503, 504]);

const mediaType = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

function looksLikeHtml(answer: Answer): boolean {
  if (mediaType(answer.contentType) === "text/html") return true;
  const start = answer.body.subarray(0, 64).toString("utf8").trimStart().toLowerCase();
  return start.startsWith("<!doctype") || start.startsWith("<html");
}

/**
 * What is wrong with one answer to hostile input ([] = nothing). The rule: 2xx or 4xx only — 5xx
 * solely as 502/503/504 on an operation that declares them (it depends on an upstream service);
 * never HTML; every 4xx and 5xx is JSON in the declared error schema (or, where the operation
 * declares none for that status, one of the documented error shapes); every 2xx is a declared
 * status and media type, and a JSON one validates against the declared schema.
 */
export function judgeAnswer(
  op: Operation,
  answer: Answer,
  schemas: ResponseSchemas,
  options: { otherRoute?: boolean } = {},
): string[] {
  if (answer.failure) return [answer.failure];
  const problems: string[] = [];
  const { status } = answer;
  // An answer for another route (the target's dot segments resolved) cannot be held to this one's schemas.
  const declared = options.otherRoute ? undefined : op.responses[String(status)];
  if (looksLikeHtml(answer)) problems.push(`HTML answer (${status})`);
  if (status >= 500 && !(UPSTREAM_STATUSES.has(status) && declared)) problems.push(`server error ${status}`);
  if (status < 200 || (status >= 300 && status < 400)) problems.push(`unexpected status ${status}`);
  if (status >= 200 && status < 300) {
    if (options.otherRoute) return problems;
    if (!declared) return [...problems, `undeclared success status ${status}`];
    const type = mediaType(answer.contentType);
    if (!(type in declared) && !("*/*" in declared)) {
      return [...problems, `${status} as ${type || "no content type"}, declared ${Object.keys(declared).join(", ")}`];
    }
    if (type !== "application/json") return problems;
  } else if (mediaType(answer.contentType) !== "application/json") {
    return [...problems, `${status} as ${answer.contentType || "no content type"}, not JSON`];
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString("utf8"));
  } catch {
    return [...problems, `${status} body is not valid JSON`];
  }
  const pointer = declared?.["application/json"];
  const check = pointer ? schemas.check(pointer, body) : schemas.checkErrorShape(body);
  if (check.ok === "uncompilable") problems.push(`declared ${status} schema does not compile: ${check.reason}`);
  else if (check.ok === false) problems.push(`${status} body does not match its schema: ${check.errors}`);
  return problems;
}
