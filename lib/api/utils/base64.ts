import { GatewayError } from "../../errors.ts";

/** Bytes that `n` base64 characters (padding included) decode to. */
function decodedLength(text: string): number {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}

/**
 * Decodes base64 (optionally a data: URL); anything else is the caller's mistake, not ours.
 * Node skips characters outside the alphabet, so a decoded length short of what the text length
 * promises is how invalid input shows — checked in O(1) instead of scanning megabytes with a regex.
 */
export function decodeBase64(input: string, field: string): Buffer {
  let text = input.startsWith("data:") ? input.slice(input.indexOf(",") + 1) : input;
  let bytes = Buffer.from(text, "base64");
  if (bytes.length !== decodedLength(text) || text.length % 4 === 1) {
    // Line-wrapped (MIME) base64 is fine; anything else left over is not base64.
    text = text.replace(/\s+/g, "");
    bytes = Buffer.from(text, "base64");
  }
  if (text.length === 0 || text.length % 4 === 1 || bytes.length !== decodedLength(text)) {
    throw new GatewayError(400, `${field} must be base64-encoded data`);
  }
  return bytes;
}
