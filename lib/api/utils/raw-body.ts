import { z } from "@hono/zod-openapi";
import { GatewayError } from "../../errors.ts";
import type { GatewayRequest } from "../../gateway/pipeline/request.ts";

/**
 * The raw-body forms of the image and PDF routes: the bytes themselves as the body, the options in the
 * query string. The JSON form (base64 in a JSON body) is the spec's and stays as it is; the raw form
 * skips base64 both ways (a 3.8 MB image costs ~12 ms to send, decode, parse and base64-decode as JSON).
 * The pipeline validates the JSON form against the contract and leaves any other body to the handler,
 * which reads it here.
 */

/** A route's raw form: the JSON field the bytes stand for, and the media types they may be sent as. */
export type RawForm = { field: string; types: readonly string[] };

const JSON_TYPE = "application/json";

const mediaType = (header: string | undefined) => header?.split(";")[0]!.trim().toLowerCase() ?? "";

/** The OpenAPI request body of a route with both forms: its JSON schema, and each raw type as binary. */
export function jsonOrRawRequest<T extends z.ZodType>(schema: T, form: RawForm, rawDescription: string) {
  const binary = z.string().openapi({ format: "binary", description: rawDescription });
  return {
    body: {
      content: {
        [JSON_TYPE]: { schema },
        ...Object.fromEntries(form.types.map((type) => [type, { schema: binary }])),
      },
      required: true,
    },
  };
}

/**
 * The body of a request not in the JSON form: one of the form's types, else a 415 saying what is
 * accepted; empty is a 400. The adapters cap it as they read it (413 past MAX_BODY_BYTES: a declared
 * length is refused unread, a chunked body is counted as it arrives) into one fresh Uint8Array that
 * owns its whole ArrayBuffer, so the pool moves it to its thread without a copy.
 */
export async function rawBody(req: Pick<GatewayRequest, "header" | "bytes">, form: RawForm): Promise<Uint8Array> {
  const header = req.header("content-type");
  if (!form.types.includes(mediaType(header))) {
    const accepted = `send application/json (${form.field} as base64) or the raw ${form.field} as ${listOr(form.types)}, with the options in the query string`;
    throw new GatewayError(
      415,
      header
        ? `Content-Type ${JSON.stringify(header)} is not accepted here: ${accepted}`
        : `Content-Type is missing: ${accepted}`,
    );
  }
  const body = await req.bytes();
  if (body.length === 0) throw new GatewayError(400, `${form.field} is missing: the body is empty`);
  return body;
}

function listOr(items: readonly string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
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
