// Images between chat's image_url parts (an http(s) or data: URL) and Anthropic's image blocks (a URL
// or base64 source), both ways.
import type Anthropic from "@anthropic-ai/sdk";
import { GatewayError } from "../../../errors.ts";

type ImageType = Anthropic.Messages.Base64ImageSource["media_type"];
type ImageBlock = Anthropic.Messages.ImageBlockParam;

const IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"] satisfies ImageType[];
const isImageType = (t: string): t is ImageType => IMAGE_TYPES.includes(t);

/** A chat image URL as an Anthropic image block; 400 naming `at` for a URL or type Anthropic cannot take. */
export function imageBlock(url: string, at: string): ImageBlock {
  if (/^https?:\/\//i.test(url)) return { type: "image", source: { type: "url", url } };
  const mediaType = /^data:([^;,]+);base64,/.exec(url)?.[1];
  if (mediaType === undefined) {
    throw new GatewayError(400, `${at} must be an http(s) URL or a base64 data: URL for anthropic`);
  }
  if (!isImageType(mediaType)) throw new GatewayError(400, `${at} of type ${mediaType} is not supported by anthropic`);
  return { type: "image", source: { type: "base64", media_type: mediaType, data: url.slice(url.indexOf(",") + 1) } };
}

/** An Anthropic image source as a chat image URL; undefined for a file id, which only Anthropic can read. */
export function imageUrl(source: ImageBlock["source"]): string | undefined {
  if (source.type === "base64") return `data:${source.media_type};base64,${source.data}`;
  if (source.type === "url") return source.url;
  return undefined;
}
