import { GatewayError } from "../../errors.ts";
import type { DataSource, SourceContext } from "../source.ts";
import { fullResults, upstream } from "./client.ts";
import { answer, podRecords } from "./normalise.ts";

/** Wolfram|Alpha's answer to a question. */
export async function wolframQuery(ctx: SourceContext, input: string) {
  if (!input.trim()) throw new GatewayError(400, "query is required");
  return answer(input, await fullResults(ctx, input));
}

export const wolfram: DataSource = {
  name: "wolfram",
  description: "Wolfram|Alpha computational answers (WOLFRAM_APP_ID)",
  upstream,
  search: async (ctx, query) => podRecords(await wolframQuery(ctx, query)),
  get: (ctx, id) => wolframQuery(ctx, id),
};
