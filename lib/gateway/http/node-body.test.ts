import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../../errors.ts";
import { startTestGateway, type TestGateway } from "../../../test/support/gateway.ts";
import { listen, type Listening } from "../../../test/support/listen.ts";
import { readDeclaredBody, utf8Text } from "./node-body.ts";

describe("readDeclaredBody, as text", () => {
  let server: Listening<http.Server>;
  const outcomes: Array<Promise<string>> = [];
  beforeAll(async () => {
    server = await listen(
      http.createServer((req, res) => {
        const text = readDeclaredBody(req, Number(req.headers["content-length"])).then(utf8Text);
        outcomes.push(text);
        text.then(
          (t) => res.end(JSON.stringify({ text: t })),
          () => res.destroy(),
        );
      }),
    );
  });
  afterAll(() => server.close());

  /** Sends the head and then the body's bytes in the given pieces, a tick apart; `close` ends the connection early. */
  function send(pieces: Buffer[], declared: number, close = false): Promise<void> {
    return new Promise((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", async () => {
        socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`);
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((r) => setTimeout(r, 10));
        }
        if (close) socket.destroy();
      });
      socket.on("data", () => {});
      socket.on("close", () => resolve());
    });
  }

  it("reads a body that arrives in pieces, a character split between two of them included", async () => {
    const body = Buffer.from(JSON.stringify({ text: "naïve café — 日本語" }));
    const split = body.indexOf(Buffer.from("日")) + 1;
    await send([body.subarray(0, 5), body.subarray(5, split), body.subarray(split)], body.length);
    expect(JSON.parse(await outcomes.at(-1)!)).toEqual({ text: "naïve café — 日本語" });
  });

  it("refuses a body the client stopped sending before its declared length, as a 400", async () => {
    await send([Buffer.from('{"text": "sho')], 100, true);
    const err = await outcomes.at(-1)!.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(400);
  });
});

/** The Node adapter, which reads a JSON body of declared length off Node's request, against the Fetch adapter. */
describe("JSON bodies under the Node server", () => {
  let gw: TestGateway;
  let server: Listening;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    server = await listen(gw.app.fetch); // the Fetch adapter, under a second server
    key = (await gw.key()).key;
  });
  afterAll(async () => {
    await server?.close();
    await gw?.close();
  });

  const post = async (body: string, contentType = "application/json") => {
    const init = { method: "POST", headers: { "content-type": contentType, "X-API-Key": key }, body };
    const [viaNode, viaFetch] = [
      await gw.request("/v1/utils/convert", init),
      await fetch(`${server.url}/v1/utils/convert`, init),
    ];
    return {
      status: viaNode.status,
      body: await viaNode.json(),
      app: { status: viaFetch.status, body: await viaFetch.json() },
    };
  };

  it("validates what was sent, as the Fetch adapter does", async () => {
    const invalid = await post(JSON.stringify({ data: 5, target_format: "ü" }));
    expect(invalid.status).toBe(400);
    expect(invalid).toMatchObject({ status: invalid.app.status, body: invalid.app.body });
    expect(invalid.body.error).toMatch(/data/);
    const malformed = await post('{"data": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(malformed.app.body);
    const charset = await post(JSON.stringify({ data: 5 }), "application/json; charset=utf-8");
    expect(charset.status).toBe(400);
    expect(charset.body).toEqual(charset.app.body);
  });
});
