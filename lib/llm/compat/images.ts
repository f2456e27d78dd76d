import { GatewayError } from "../../errors.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { fetchImage, imageInput } from "../vision.ts";

/** Image URLs one request may have the gateway fetch: each is a fetch made on the caller's behalf. */
export const MAX_IMAGE_URLS = 8;

type Part = { type: string; image_url?: { url?: unknown } };
type Message = { content?: unknown };

/**
 * `image_url` parts as the provider receives them: an https URL is fetched by the gateway under the
 * proxy's rules (no private or loopback address after DNS or on any redirect, the proxy's size cap)
 * and sent inline as a data: URL; a data: URL must hold a PNG, JPEG, GIF or WebP. The provider is never
 * handed a URL to fetch, so what it sees is what the gateway checked. Returns new messages.
 */
export async function inlineImages<M extends Message>(
  rt: Runtime,
  messages: M[],
  stoppedBy: { readonly signal: AbortSignal },
): Promise<M[]> {
  const fetches: Array<{ part: Part; url: string; where: string }> = [];
  const out = messages.map((m, i) => {
    if (!Array.isArray(m.content)) return m;
    const content = (m.content as Part[]).map((p, j) => {
      if (p.type !== "image_url") return p;
      const where = `messages.${i}.content.${j}.image_url.url`;
      const url = p.image_url?.url;
      if (typeof url !== "string") throw new GatewayError(400, `${where}: an https or data: URL is required`);
      if (url.startsWith("data:")) {
        try {
          imageInput(url);
        } catch {
          throw new GatewayError(400, `${where}: a data: URL must hold a PNG, JPEG, GIF or WebP image`);
        }
        return p;
      }
      const part = { ...p, image_url: { ...p.image_url } };
      fetches.push({ part, url, where });
      return part;
    });
    return { ...m, content };
  });
  if (fetches.length > MAX_IMAGE_URLS)
    throw new GatewayError(400, `at most ${MAX_IMAGE_URLS} image URLs per request (send more as data: URLs)`);
  await Promise.all(
    fetches.map(async ({ part, url }) => {
      // Read only here: the client's AbortSignal is made only for a request that has images to fetch.
      const base64 = await fetchImage(rt, url, stoppedBy.signal, "chat image");
      const input = imageInput(base64) as { mediaType: string };
      part.image_url!.url = `data:${input.mediaType};base64,${base64}`;
    }),
  );
  return out;
}
