import { APICallError } from "ai";
import { GatewayError } from "../errors.ts";
import { upstreamStatusError } from "../upstream/http.ts";

/** What a provider's failure means to our caller: never a 500, never the provider's credentials. */
export function providerError(provider: string, err: unknown): GatewayError {
  // The AI SDK wraps what its fetch threw (our body cap's 502, say) as the cause of its own error.
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if (e instanceof GatewayError) return e;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (!status) return new GatewayError(502, `${provider} could not be reached`);
    const headers = err.responseHeaders;
    return upstreamStatusError(
      provider,
      status,
      headers?.["retry-after"],
      err.message.slice(0, 300),
      headers?.["retry-after-ms"],
    );
  }
  const name = (err as Error)?.name;
  if (name === "TimeoutError") return new GatewayError(504, `${provider} did not answer in time`);
  if (name === "AbortError") return new GatewayError(499 as never, "request cancelled");
  return new GatewayError(502, `${provider} failed: ${(err as Error)?.message?.slice(0, 200) ?? "unknown error"}`);
}
