/** Where the trace id goes in TRACE_URL_TEMPLATE. */
const PLACEHOLDER = "{traceId}";
/** A W3C trace id as the gateway records it: 32 lower-case hex digits. */
const TRACE_ID = /^[0-9a-f]{32}$/;

/**
 * The operator's TRACE_URL_TEMPLATE (a trace viewer's page, e.g. Jaeger's
 * `http://localhost:16686/trace/{traceId}`), checked at start: an http(s) URL holding `{traceId}`.
 * Unset, the request log shows trace ids as text.
 */
export function traceUrlTemplate(value: string | undefined): string | undefined {
  const template = value?.trim();
  if (!template) return undefined;
  const problem = `TRACE_URL_TEMPLATE must be an http(s) URL containing ${PLACEHOLDER}, such as http://localhost:16686/trace/${PLACEHOLDER}; got '${template.slice(0, 200)}'`;
  if (!template.includes(PLACEHOLDER)) throw new Error(problem);
  try {
    const url = new URL(traceUrl(template, "0".repeat(32)));
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
  } catch {
    throw new Error(problem);
  }
  return template;
}

/** The trace's page in the operator's viewer; undefined for anything that is not a trace id (nothing else goes in a link). */
export function traceLink(template: string | undefined, traceId: string): string | undefined {
  return template && TRACE_ID.test(traceId) ? traceUrl(template, traceId) : undefined;
}

const traceUrl = (template: string, traceId: string) => template.replaceAll(PLACEHOLDER, traceId);
