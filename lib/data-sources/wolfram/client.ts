import { requireCredential } from "../../upstream/credentials.ts";
import type { UpstreamOptions } from "../../upstream/client.ts";
import type { SourceContext } from "../source.ts";

export const upstream: UpstreamOptions = {
  name: "wolfram",
  origin: "https://api.wolframalpha.com",
  cacheTtlMs: 24 * 60 * 60_000,
};

/** A pod of the Full Results API's JSON output. */
export type Pod = {
  title: string;
  id?: string;
  primary?: boolean;
  subpods?: Array<{ title?: string; plaintext?: string; img?: { src?: string } }>;
};
export type QueryResult = {
  queryresult?: { success?: boolean; error?: boolean | { msg?: string }; pods?: Pod[]; didyoumeans?: unknown };
};

/** The Full Results API, asked for JSON with each pod's plain text and images. */
export const fullResults = (ctx: SourceContext, input: string) =>
  ctx.client.get<QueryResult>({
    path: "/v2/query",
    query: { input, appid: requireCredential("wolfram", "WOLFRAM_APP_ID"), output: "json", format: "plaintext,image" },
  });
