import { GatewayError } from "../../errors.ts";
import type { SearchRecord } from "../source.ts";
import type { QueryResult } from "./client.ts";

/** The primary pod's text as `result` (else the Result pod's, else the second pod's), every pod as `pods`. */
export function answer(input: string, body: QueryResult) {
  const qr = body.queryresult;
  if (qr?.error)
    throw new GatewayError(
      502,
      `wolfram failed: ${typeof qr.error === "object" ? (qr.error.msg ?? "error") : "error"}`,
    );
  const pods = (qr?.pods ?? []).map((p) => ({
    title: p.title,
    id: p.id ?? null,
    primary: Boolean(p.primary),
    text: (p.subpods ?? [])
      .map((s) => s.plaintext ?? "")
      .filter(Boolean)
      .join("\n"),
    images: (p.subpods ?? []).map((s) => s.img?.src).filter(Boolean),
  }));
  const primary = pods.find((p) => p.primary) ?? pods.find((p) => p.id === "Result") ?? pods[1];
  return { query: input, success: Boolean(qr?.success), result: primary?.text ?? null, pods };
}

/** Each pod of an answer as a search record. */
export const podRecords = (a: ReturnType<typeof answer>): SearchRecord[] =>
  a.pods.map((p) => ({ id: p.id ?? p.title, title: p.title, url: null, summary: p.text || null, source: "wolfram" }));
