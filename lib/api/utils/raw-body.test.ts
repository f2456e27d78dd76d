import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { rawBody, type RawForm } from "./raw-body.ts";

const PDF: RawForm = { field: "pdf", types: ["application/pdf"] };
const IMAGE: RawForm = { field: "image", types: ["image/png", "image/jpeg", "image/webp"] };

function request(contentType: string | undefined, body = new Uint8Array([1, 2, 3])) {
  let reads = 0;
  return {
    header: (name: string) => (name === "content-type" ? contentType : undefined),
    bytes: () => ((reads += 1), Promise.resolve(body)),
    reads: () => reads,
  };
}

const refusal = async (run: Promise<unknown>) => {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  return err instanceof GatewayError ? [err.status, err.message] : err;
};

describe("rawBody", () => {
  it("reads a body of one of the form's types, parameters and case aside", async () => {
    expect(await rawBody(request("application/pdf"), PDF)).toEqual(new Uint8Array([1, 2, 3]));
    expect(await rawBody(request("Image/PNG; charset=binary"), IMAGE)).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("refuses any other type with 415 saying what is accepted, before reading the body", async () => {
    const other = request("text/plain");
    expect(await refusal(rawBody(other, IMAGE))).toEqual([
      415,
      'Content-Type "text/plain" is not accepted here: send application/json (image as base64) or the raw image as image/png, image/jpeg or image/webp, with the options in the query string',
    ]);
    expect(other.reads()).toBe(0);
    expect(await refusal(rawBody(request(undefined), PDF))).toEqual([
      415,
      "Content-Type is missing: send application/json (pdf as base64) or the raw pdf as application/pdf, with the options in the query string",
    ]);
  });

  it("refuses an empty body with 400 naming the field", async () => {
    expect(await refusal(rawBody(request("application/pdf", new Uint8Array(0)), PDF))).toEqual([
      400,
      "pdf is missing: the body is empty",
    ]);
  });
});
