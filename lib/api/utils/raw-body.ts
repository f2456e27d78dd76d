import { IncomingMessage } from "node:http";
import { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { accepts } from "hono/accepts";
import { GatewayError } from "../../errors.ts";
import type { GatewayEnv } from "../../gateway/http/context.ts";
import { acceptInput } from "../../gateway/http/validation.ts";
import { readDeclaredBody } from "../../gateway/http/node-body.ts";
import type { ImageBytes, ImageFormat, ImageResult } from "./images.ts";

/**
 * The raw-body forms of the image and PDF routes: the bytes themselves as the body, the options in the
 * query string. The JSON form (base64 in a JSON body) is the spec's and stays as it is; the raw form
 * skips base64 both ways (a 3.8 MB image costs ~12 ms to send, decode, parse and base64-decode as JSON).
 */

/** What sharp reads from a buffer (its prebuilt libvips: AVIF is its only HEIF), as the base64 form does. */
export const IMAGE_INPUT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/tiff",
  "image/svg+xml",
] as const;

/** The media type of each output format: the only Content-Type an image answer is ever sent with. */
export const IMAGE_OUTPUT_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: "image/png",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  bmp: "image/bmp",
};

const JSON_TYPE = "application/json";
/** Hono's test for a JSON body (its json validator reads only these): application/json, application/x+json. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/;

const mediaType = (header: string | undefined) => header?.split(";")[0]!.trim().toLowerCase() ?? "";

/** The OpenAPI request body of a route with both forms: its JSON schema, and each raw type as binary. */
export function jsonOrRawRequest<T extends z.ZodType>(schema: T, rawTypes: readonly string[], rawDescription: string) {
  const binary = z.string().openapi({ format: "binary", description: rawDescription });
  return {
    body: {
      content: {
        [JSON_TYPE]: { schema },
        ...Object.fromEntries(rawTypes.map((type) => [type, { schema: binary }])),
      },
      required: true,
    },
  };
}

/**
 * A route's raw-body form, as route middleware (behind the guard: authenticated, limited, metered). A JSON
 * body passes on to the route's validation and handler; a body of one of `rawTypes` is read and given to
 * `handle`, which answers; anything else is a 415 listing what is accepted. The body was capped by the
 * app's body limit before this runs (413 past MAX_BODY_BYTES: a declared length is refused unread, a
 * chunked body is counted as it arrives), so at most that much is ever buffered.
 */
export function rawBodyForm(
  field: string,
  rawTypes: readonly string[],
  handle: (c: Context<GatewayEnv>, body: Uint8Array) => Promise<Response>,
): MiddlewareHandler<GatewayEnv> {
  const accepted = `send application/json (${field} as base64) or the raw ${field} as ${listOr(rawTypes)}, with the options in the query string`;
  return async function rawBody(c, next) {
    const header = c.req.header("content-type");
    const type = mediaType(header);
    if (JSON_MEDIA_TYPE.test(type)) return next();
    if (!(rawTypes as readonly string[]).includes(type)) {
      throw new GatewayError(
        415,
        header
          ? `Content-Type ${JSON.stringify(header)} is not accepted here: ${accepted}`
          : `Content-Type is missing: ${accepted}`,
      );
    }
    const body = await readBody(c);
    if (body.length === 0) throw new GatewayError(400, `${field} is missing: the body is empty`);
    return handle(c, body);
  };
}

/**
 * The body as one fresh Uint8Array that owns its whole ArrayBuffer, so the pool moves it to its thread
 * without a copy. Under the Node server with a declared length it is read straight off the socket into
 * a buffer of that length: Hono's reader concatenates the chunks and then copies the result into a new
 * ArrayBuffer, two more body-sized allocations whose garbage collection cost ~5 ms of a 2.9 MB request.
 * Node's parser never delivers more than the declared length (and the body cap refused a longer one
 * unread); a chunked body was already read and counted by the cap, and is taken from Hono.
 */
async function readBody(c: Context<GatewayEnv>): Promise<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const declared = c.req.header("content-length");
  if (!(incoming instanceof IncomingMessage) || declared === undefined || c.req.header("transfer-encoding")) {
    return new Uint8Array(await c.req.arrayBuffer());
  }
  return readDeclaredBody(incoming, Number(declared));
}

function listOr(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/**
 * The query string validated against a raw form's options schema, with validationHook's rules (a 400
 * naming the field). A repeated parameter arrives as an array, as Hono's query validator gives it.
 */
export function rawOptions<T extends z.ZodType>(c: Context<GatewayEnv>, schema: T): z.output<T> {
  const query = Object.fromEntries(
    Object.entries(c.req.queries()).map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
  );
  return acceptInput(schema.safeParse(query), "query");
}

// Query values are text: "" means not sent (the default applies), as blankAsAbsent does elsewhere.
// Not z.coerce: it turns "" into 0 and "false" into true.

/** An integer query parameter: "12" is 12; anything else fails the schema with the parameter's name. */
export const queryInt = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === "" ? undefined : typeof v === "string" ? Number(v) : v), schema);

/** A boolean query parameter: true or false. */
export const queryBoolean = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === "" ? undefined : v === "true" ? true : v === "false" ? false : v),
    z.boolean().default(fallback),
  );

/** A list of integers: comma-separated (pages=1,3), repeated (pages=1&pages=3) or both. */
export const queryIntList = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => {
    if (v === "" || v === undefined) return undefined;
    const parts = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(","));
    return parts.map((s) => (s.trim() === "" ? Number.NaN : Number(s)));
  }, schema);

/**
 * The answer's form and format. JSON unless Accept prefers an image type this request can produce:
 * `image/*`, or the format's own type. With no format asked for, Accept may choose it among `formats`
 * (`image/*` alone gets the first, the default); one asked for is the only image type on offer. An
 * Accept naming nothing on offer gets JSON, as no Accept does.
 */
export function negotiateImage<F extends ImageFormat>(
  c: Context<GatewayEnv>,
  formats: readonly F[],
  asked: F | undefined,
): { binary: boolean; format: F } {
  const offered = asked ? [asked] : formats;
  const chosen = accepts(c, {
    header: "Accept",
    supports: [JSON_TYPE, ...offered.map((f) => IMAGE_OUTPUT_TYPES[f])],
    default: JSON_TYPE,
  });
  const format = offered.find((f) => IMAGE_OUTPUT_TYPES[f] === chosen);
  return format ? { binary: true, format } : { binary: false, format: asked ?? formats[0]! };
}

/** The headers that describe an image answer's bytes, as its JSON body would. */
export const IMAGE_HEADERS = {
  "X-Image-Format": "png, jpeg, webp, gif or bmp",
  "X-Image-Width": "width in pixels",
  "X-Image-Height": "height in pixels",
  "X-Image-Bytes": "size of the image in bytes (also its Content-Length)",
} as const;

/**
 * An image route's answer. JSON as the spec has it, or the bytes: typed as the validated output format
 * only (never the input's type, and SVG is no output format), nosniff, inline under a fixed filename,
 * the JSON's fields in X-Image-* headers, and a Content-Length the guard meters as bytes out. Both
 * vary by Accept.
 */
export function imageAnswer(c: Context<GatewayEnv>, out: ImageResult | ImageBytes, name: string): Response {
  if (!("data" in out)) return c.json(out, 200, { Vary: "Accept" });
  const { data, format, width, height, bytes } = out;
  // A structured clone from the pool: its own ArrayBuffer, never shared memory.
  return c.body(data as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": IMAGE_OUTPUT_TYPES[format],
    "Content-Length": String(data.byteLength),
    "Content-Disposition": `inline; filename="${name}.${format === "jpeg" ? "jpg" : format}"`,
    "X-Content-Type-Options": "nosniff",
    "X-Image-Format": format,
    "X-Image-Width": String(width),
    "X-Image-Height": String(height),
    "X-Image-Bytes": String(bytes),
    Vary: "Accept",
  });
}
