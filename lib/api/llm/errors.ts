import { APICallError } from "ai";
import { GatewayError } from "../../gateway/errors.ts";

/** What a provider's failure means to our caller: never a 500, never the provider's credentials. */
export function providerError(provider: string, err: unknown): GatewayError {
  if (err instanceof GatewayError) return err;
  if (APICallError.isInstance(err)) {
    const status = err.statusCode ?? 0;
    if (status === 401 || status === 403) return new GatewayError(502, `${provider} rejected the gateway's credentials`);
    if (status === 429) {
      const retry = err.responseHeaders?.["retry-after"];
      return new GatewayError(503, `${provider} is rate limiting the gateway; try again later`, retry ? { "Retry-After": retry } : {});
    }
    if (status >= 400 && status < 500) return new GatewayError(400, `${provider} refused the request: ${err.message.slice(0, 300)}`);
    if (status >= 500) return new GatewayError(502, `${provider} failed (${status})`);
    return new GatewayError(502, `${provider} could not be reached`);
  }
  const name = (err as Error)?.name;
  if (name === "TimeoutError") return new GatewayError(504, `${provider} did not answer in time`);
  if (name === "AbortError") return new GatewayError(499 as never, "request cancelled");
  return new GatewayError(502, `${provider} failed: ${(err as Error)?.message?.slice(0, 200) ?? "unknown error"}`);
}
