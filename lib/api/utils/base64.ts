import { GatewayError } from "../../gateway/errors.ts";

/** Decodes base64 (optionally a data: URL); anything else is the caller's mistake, not ours. */
export function decodeBase64(input: string, field: string): Buffer {
  const payload = input.startsWith("data:") ? input.slice(input.indexOf(",") + 1) : input;
  const compact = payload.replace(/\s+/g, "");
  if (!compact || compact.length % 4 === 1 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(compact)) {
    throw new GatewayError(400, `${field} must be base64-encoded data`);
  }
  return Buffer.from(compact, "base64");
}
