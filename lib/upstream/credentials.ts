import { GatewayError } from "../errors.ts";

/** A third-party credential from the environment, or 503 naming the variable to set. */
export function requireCredential(service: string, variable: string): string {
  const value = process.env[variable]?.trim();
  if (!value) throw new GatewayError(503, `${service} is not configured: set ${variable}`);
  return value;
}
