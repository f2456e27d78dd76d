import { estimateCost } from "../../usage/prices.ts";
import type { CacheUse } from "../../usage/usage-event.ts";
import { formatUsd } from "../pages/format.ts";

/**
 * What the response cache did for a request, as the request log's detail says it: a miss, or a hit with
 * how old the answer was and what it cost when the provider first gave it (what this request saved).
 */
export function cacheText(cache: CacheUse): string {
  if (cache.state === "miss") return "miss: the provider answered, and its answer was kept";
  const tokens = `${cache.promptTokens.toLocaleString("en")} + ${cache.completionTokens.toLocaleString("en")} tokens`;
  const saved = estimateCost(cache.provider, cache.model, cache.promptTokens, cache.completionTokens);
  const savedText = saved === undefined ? "" : `, about ${formatUsd(saved)} saved`;
  if (cache.similarity !== undefined)
    return `semantic hit: answered with the answer to a question of similarity ${cache.similarity}, kept ${cache.ageS.toLocaleString("en")} s earlier, first given by ${cache.provider}/${cache.model} (${tokens}${savedText})`;
  return `hit: answered from an answer kept ${cache.ageS.toLocaleString("en")} s earlier, first given by ${cache.provider}/${cache.model} (${tokens}${savedText})`;
}
