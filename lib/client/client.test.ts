import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from "vitest";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { ApiError, consoleClient, dataOf } from "../console/api.ts";
import { createGatewayClient, type Answer, type Schemas } from "./index.ts";

/** The typed client against a gateway served over HTTP on loopback, as a TypeScript user would call it. */
describe("createGatewayClient", () => {
  let gw: TestGateway;
  let key: { id: string; key: string };
  beforeAll(async () => {
    gw = await startTestGateway();
    key = await gw.key({ name: "typed client" });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await gw?.close();
  });

  it("reads the calling key with the key as a bearer token, typed as the document says", async () => {
    const gateway = createGatewayClient({ baseUrl: gw.url, apiKey: key.key });
    const { data, error, response } = await gateway.GET("/v1/key");
    expect(response.status).toBe(200);
    expect(error).toBeUndefined();
    expectTypeOf(data).toEqualTypeOf<Schemas["KeyInfo"] | undefined>();
    expect(data).toMatchObject({ id: key.id, name: "typed client", scopes: [] });
    expect(data!.limits.minute).toBeGreaterThan(0);
  });

  it("posts a typed body and reads the typed answer", async () => {
    const gateway = createGatewayClient({ baseUrl: `${gw.url}/`, apiKey: key.key });
    const { data, response } = await gateway.POST("/v1/utils/format/convert", {
      body: { content: "# Tides\n\nThe *moon* pulls them.", from_format: "markdown", to_format: "html" },
    });
    expect(response.status).toBe(200);
    expectTypeOf(data).toEqualTypeOf<Answer<"post", "/v1/utils/format/convert"> | undefined>();
    expect(data).toMatchObject({ from_format: "markdown", to_format: "html" });
    expect(data!.result).toContain("<h1");
    expect(data!.result).toContain("<em>moon</em>");
  });

  it("gives a refused call's error body instead of data", async () => {
    const anonymous = createGatewayClient({ baseUrl: gw.url });
    const { data, error, response } = await anonymous.GET("/v1/key");
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ error: expect.any(String) });
  });

  it("refuses, at compile time, a path the API does not have and a body its route would refuse", () => {
    const gateway = createGatewayClient({ baseUrl: gw.url, apiKey: key.key });
    // Never called: tsc (npm run typecheck) is what checks these lines.
    const wrong = () => [
      // @ts-expect-error -- no such path
      gateway.GET("/v1/no-such-route"),
      // @ts-expect-error -- to_format is one of markdown, html and plain
      gateway.POST("/v1/utils/format/convert", { body: { content: "x", to_format: "pdf" } }),
      // @ts-expect-error -- content is required
      gateway.POST("/v1/utils/format/convert", { body: { to_format: "html" } }),
    ];
    expect(typeof wrong).toBe("function");
  });

  it("the consoles' instance calls the page's origin and throws a failure as the ApiError the consoles show", async () => {
    vi.stubGlobal("location", new URL(`${gw.url}/console/chat`));
    // No portal session: the consoles' call is signed out.
    const error = await dataOf(consoleClient().GET("/v1/key")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe("signed-out");
    // A keyless route answers it as it answers a page.
    const health = await dataOf(consoleClient().GET("/health"));
    expect(health.status).toBe("ok");
  });
});
