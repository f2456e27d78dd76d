import { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import type { GatewayRequest } from "./request.ts";
import { validatedInput } from "./validate.ts";

function request(headers: Record<string, string>, body = "", search = ""): GatewayRequest {
  const bytes = new TextEncoder().encode(body);
  return {
    method: "POST",
    path: "/v1/x",
    search,
    url: `http://localhost/v1/x${search ? `?${search}` : ""}`,
    remoteAddress: undefined,
    header: (name) => headers[name],
    declaredLength: bytes.byteLength,
    hasBody: bytes.byteLength > 0,
    bytes: () => Promise.resolve(bytes),
    text: () => Promise.resolve(body),
    signal: new AbortController().signal,
    whenClientLeaves: () => {},
  };
}

const Body = z.object({ name: z.string() });
const contract = (required = true) =>
  ({
    method: "post",
    path: "/v1/x",
    request: {
      query: z.object({ n: z.coerce.number().default(1) }),
      body: { content: { "application/json": { schema: Body } }, required },
    },
    responses: {},
  }) as never;

const statusOf = async (run: () => unknown) => {
  try {
    await run();
  } catch (err) {
    return err instanceof GatewayError ? [err.status, err.message] : err;
  }
  return "passed";
};

describe("validatedInput", () => {
  it("checks the query and a JSON body against the contract", async () => {
    const input = await validatedInput(
      contract(),
      request({ "content-type": "application/json" }, '{"name":"a"}', "n=3"),
      undefined,
    );
    expect(input).toEqual({ query: { n: 3 }, params: undefined, body: { name: "a" } });
  });

  it("answers a GET's input without a promise", () => {
    const get = { method: "get", path: "/v1/x", request: { query: z.object({ q: z.string() }) }, responses: {} };
    expect(validatedInput(get as never, request({}, "", "q=hi"), undefined)).toEqual({
      query: { q: "hi" },
      params: undefined,
      body: undefined,
    });
  });

  it("refuses another media type with 415, unparsable JSON and a failing body with 400", async () => {
    expect(
      await statusOf(() => validatedInput(contract(), request({ "content-type": "text/plain" }, "x"), undefined)),
    ).toEqual([415, "Unsupported Media Type"]);
    expect(await statusOf(() => validatedInput(contract(), request({}, "x"), undefined))).toEqual([
      415,
      "Unsupported Media Type",
    ]);
    expect(
      await statusOf(() => validatedInput(contract(), request({ "content-type": "application/json" }, "{"), undefined)),
    ).toEqual([400, "Malformed JSON in request body"]);
    expect(
      await statusOf(() =>
        validatedInput(contract(), request({ "content-type": "application/json" }, "{}"), undefined),
      ),
    ).toEqual([400, expect.stringMatching(/^invalid request: name: /)]);
  });

  it("validates a body sent without one as {}, naming what is missing, required or not", async () => {
    for (const required of [true, false])
      expect(await statusOf(() => validatedInput(contract(required), request({}), undefined))).toEqual([
        400,
        expect.stringMatching(/^invalid request: name: /),
      ]);
  });

  it("leaves any body but JSON unread for a route that also takes raw bytes, and validates its JSON form", async () => {
    const binary = z.string().openapi({ format: "binary" });
    const rawContract = {
      method: "post",
      path: "/v1/x",
      request: {
        body: { content: { "application/json": { schema: Body }, "image/png": { schema: binary } }, required: true },
      },
      responses: {},
    } as never;
    let read = false;
    const unread = (headers: Record<string, string>) => {
      const req = request(headers, "\x89PNG");
      return { ...req, bytes: () => ((read = true), req.bytes()), text: () => ((read = true), req.text()) };
    };
    const unvalidated: Record<string, string>[] = [
      { "content-type": "image/png" },
      { "content-type": "text/plain" },
      {},
    ];
    for (const headers of unvalidated)
      expect((await validatedInput(rawContract, unread(headers), undefined)).body).toBeUndefined();
    expect(read).toBe(false);
    const json = request({ "content-type": "application/json" }, '{"name":"a"}');
    expect((await validatedInput(rawContract, json, undefined)).body).toEqual({ name: "a" });
    expect(
      await statusOf(() =>
        validatedInput(rawContract, request({ "content-type": "application/json" }, "{}"), undefined),
      ),
    ).toEqual([400, expect.stringMatching(/^invalid request: name: /)]);
  });

  it("reads a multipart form into fields, a repeated name as an array", async () => {
    const form = new FormData();
    form.append("tag", "a");
    form.append("tag", "b");
    form.append("title", "t");
    const encoded = new Response(form);
    const type = encoded.headers.get("content-type")!;
    const text = await encoded.text();
    const schema = z.object({ tag: z.array(z.string()), title: z.string() });
    const formContract = {
      method: "post",
      path: "/v1/x",
      request: { body: { content: { "multipart/form-data": { schema } }, required: true } },
      responses: {},
    };
    const input = await validatedInput(formContract as never, request({ "content-type": type }, text), undefined);
    expect(input.body).toEqual({ tag: ["a", "b"], title: "t" });
  });
});
