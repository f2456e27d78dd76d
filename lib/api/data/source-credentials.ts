import { GatewayError } from "../../gateway/errors.ts";

/** A source's required credential, or 503 naming the variable to set. */
export function requireCredential(source: string, variable: string): string {
  const value = process.env[variable]?.trim();
  if (!value) throw new GatewayError(503, `${source} is not configured: set ${variable}`);
  return value;
}
