import { gatewayErrorMessage, type ErrorShape } from "../../gateway/pipeline/error-shape.ts";
import { listConditions, type Condition } from "./conditions.ts";
import { renderConditionHtml } from "./render.ts";
import { stem } from "./search.ts";

/** A condition as the standalone content service lists it. */
export type ContentRecord = { slug: string; name: string; has_html: boolean; url: string };

/** The portal page that shows a condition (app/clinical/[slug]/page.tsx). */
export function conditionPageUrl(slug: string): string {
  return `/clinical/${slug}`;
}

const rendered = new Map<string, string>();

/** The condition's page HTML, rendered once per process. */
export function conditionHtml(condition: Condition): string {
  let html = rendered.get(condition.slug);
  if (html === undefined) {
    html = renderConditionHtml(condition.markdown);
    rendered.set(condition.slug, html);
  }
  return html;
}

export function contentRecord(condition: Condition): ContentRecord {
  return {
    slug: condition.slug,
    name: condition.name,
    has_html: conditionHtml(condition) !== "",
    url: conditionPageUrl(condition.slug),
  };
}

const words = (text: string) => (text.match(/[\p{L}\p{N}]+/gu) ?? []).map(stem);

/**
 * Conditions whose name matches the query: every query word begins a word of the name
 * ("park" finds Parkinson's disease, "down synd" finds Down syndrome), in catalogue order.
 */
export function matchConditionNames(conditions: readonly Condition[], query: string): Condition[] {
  const wanted = words(query);
  if (wanted.length === 0) return [];
  return conditions.filter((c) => {
    const name = words(`${c.name} ${c.slug}`);
    return wanted.every((w) => name.some((n) => n.startsWith(w)));
  });
}

export type ContentStats = { total_conditions: number; html_ready: number; markdown_only: number };

export function contentStats(conditions: readonly Condition[] = listConditions()): ContentStats {
  const htmlReady = conditions.filter((c) => conditionHtml(c) !== "").length;
  return { total_conditions: conditions.length, html_ready: htmlReady, markdown_only: conditions.length - htmlReady };
}

/**
 * The content service answers errors in its own envelope, `{success: false, error}`, with the same
 * status and headers. Only what a caller caused (a 4xx: a message of either of the gateway's forms)
 * is re-wrapped: a crash or an outage keeps the gateway's own answer.
 */
export const contentServiceErrors: ErrorShape = (status, body) => {
  const message = gatewayErrorMessage(body);
  return status < 500 && message !== undefined ? { success: false, error: message } : null;
};
