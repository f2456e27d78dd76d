import { GatewayError } from "../../errors.ts";
import { requireCredential } from "../../upstream/credentials.ts";
import type { DataSource, SourceContext } from "../source.ts";

type Pod = {
  title: string;
  id?: string;
  primary?: boolean;
  subpods?: Array<{ title?: string; plaintext?: string; img?: { src?: string } }>;
};

/** Full Results API (JSON, plaintext): the primary pod's text as `result`, every pod as `pods`. */
export async function wolframQuery(ctx: SourceContext, input: string) {
  if (!input.trim()) throw new GatewayError(400, "query is required");
  const body = await ctx.client.get<{
    queryresult?: { success?: boolean; error?: boolean | { msg?: string }; pods?: Pod[]; didyoumeans?: unknown };
  }>({
    path: "/v2/query",
    query: { input, appid: requireCredential("wolfram", "WOLFRAM_APP_ID"), output: "json", format: "plaintext,image" },
  });
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

export const wolfram: DataSource = {
  name: "wolfram",
  description: "Wolfram|Alpha computational answers (WOLFRAM_APP_ID)",
  upstream: { name: "wolfram", origin: "https://api.wolframalpha.com", cacheTtlMs: 24 * 60 * 60_000 },
  async search(ctx, query) {
    const r = await wolframQuery(ctx, query);
    return r.pods.map((p) => ({
      id: p.id ?? p.title,
      title: p.title,
      url: null,
      summary: p.text || null,
      source: "wolfram",
    }));
  },
  get: (ctx, id) => wolframQuery(ctx, id),
};
