import { GatewayError } from "../errors.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import { safeFetch } from "../upstream/safe-fetch.ts";
import type { CompletionResponse, Prepared } from "./chat.ts";
import { chatStop, generateCompletion, prepareChat } from "./chat.ts";

const SIGNATURES: Array<[string, number[]]> = [
  ["image/png", [0x89, 0x50, 0x4e, 0x47]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/gif", [0x47, 0x49, 0x46]],
  ["image/webp", [0x52, 0x49, 0x46, 0x46]],
];

/** An image as a provider is sent it: its bytes and their type, never a URL for the provider (or its SDK) to fetch. */
export type InlineImage = { image: Uint8Array; mediaType: string };

/** An image given as an https URL (for the gateway to fetch) or base64 / data: URL (its bytes). */
export function imageInput(image: string): { image: URL } | InlineImage {
  if (/^https?:\/\//i.test(image)) {
    const url = new URL(image);
    if (url.protocol !== "https:") throw new GatewayError(400, "image URL must use https");
    return { image: url };
  }
  return decodeImage(image);
}

/** Base64 or a data: URL of a PNG, JPEG, GIF or WebP, as its bytes and their type (400 for anything else). */
function decodeImage(image: string): InlineImage {
  const payload = image.startsWith("data:") ? image.slice(image.indexOf(",") + 1) : image;
  const bytes = Buffer.from(payload, "base64");
  const type = SIGNATURES.find(([, sig]) => sig.every((b, i) => bytes[i] === b))?.[0];
  if (!type) throw new GatewayError(400, "image must be an https URL or base64 PNG, JPEG, GIF or WebP");
  return { image: new Uint8Array(bytes), mediaType: type };
}

/**
 * The image a caller gave, as bytes: an https URL is fetched by the gateway (fetchImage's rules), so
 * the AI SDK, which would otherwise download it itself, never sees a caller's URL.
 */
export async function imageBytes(
  rt: Runtime,
  image: string,
  signal: AbortSignal,
  purpose: string,
): Promise<InlineImage> {
  const input = imageInput(image);
  return "mediaType" in input ? input : decodeImage(await fetchImage(rt, image, signal, purpose));
}

export async function describeImage(
  input: InlineImage,
  prompt: string,
  provider = "openai",
  model?: string,
  signal?: AbortSignal,
): Promise<CompletionResponse> {
  const stop = chatStop(signal);
  try {
    const prepared = prepareChat({ messages: [{ role: "user", content: prompt }], provider, model }, stop);
    return await generateCompletion({
      ...prepared,
      options: {
        ...prepared.options,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: prompt },
              { type: "image", ...input },
            ],
          },
        ],
      } as Prepared["options"],
    });
  } finally {
    stop.release();
  }
}

/**
 * An image URL fetched by the gateway under the proxy's rules (https only, no private addresses after DNS
 * or on any redirect, the proxy's size cap), as base64: the provider is sent bytes, never the caller's URL.
 */
export async function fetchImage(rt: Runtime, url: string, signal: AbortSignal, purpose: string): Promise<string> {
  const { proxy } = rt.config;
  const res = await safeFetch(url, {
    maxBytes: proxy.maxBytes,
    timeoutMs: proxy.timeoutMs,
    maxRedirects: 5,
    userAgent: `UnifiedAPIGateway/1.0 (${purpose})`,
    allowPrivate: proxy.allowPrivate,
    extraCa: proxy.extraCa,
    resolve: rt.resolveHost,
  });
  signal.throwIfAborted();
  if (res.status !== 200) throw new GatewayError(502, `the image URL answered ${res.status}`);
  const base64 = res.body.toString("base64");
  try {
    decodeImage(base64);
  } catch {
    throw new GatewayError(400, "the image URL did not return a PNG, JPEG, GIF or WebP image");
  }
  return base64;
}
