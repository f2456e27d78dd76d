import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeArxiv, startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { useGateway } from "./support/use-gateway.ts";

type Text = { type: "text"; text: string };

describe("/v1/mcp: the tools over MCP (streamable HTTP), with the SDK's own client", () => {
  let wiki: FakeSource;
  let arxiv: FakeSource;
  const t = useGateway({
    fakes: async () => ([wiki, arxiv] = await Promise.all([startFakeWikipedia(), startFakeArxiv()])),
    env: () => ({ UPSTREAM_WIKIPEDIA_URL: wiki.url, UPSTREAM_ARXIV_URL: arxiv.url }),
    key: { minute: 1000 },
  });
  // The gateway on a real socket, as an MCP client reaches it.
  let endpoint: URL;
  let client: Client;
  beforeAll(async () => {
    endpoint = new URL("/v1/mcp", t.gw.url);
    client = await connect(t.key);
  });
  afterAll(async () => {
    await client?.close();
  });

  async function connect(key: string): Promise<Client> {
    const c = new Client({ name: "mcp-test", version: "1.0.0" });
    const headers = { Authorization: `Bearer ${key}` };
    await c.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
    return c;
  }

  const post = (body: unknown, headers: Record<string, string> = { Authorization: `Bearer ${t.key}` }) =>
    fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });

  it("lists the 36 tools with their input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(36);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe("object");
    }
    const search = tools.find((tool) => tool.name === "arxiv_search");
    expect(search?.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual(["limit", "query"]);
  });

  it("runs wikipedia_search against the source: JSON text and structuredContent", async () => {
    const result = await client.callTool({ name: "wikipedia_search", arguments: { query: "ada", limit: 1 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ source: "wikipedia", query: "ada", count: 1 });
    expect((result.structuredContent as { results: Array<{ id: string }> }).results[0]?.id).toBe("Ada Lovelace");
    expect(JSON.parse((result.content as Text[])[0]!.text)).toEqual(result.structuredContent);
    expect(wiki.hits.some((hit) => hit.startsWith("/w/api.php"))).toBe(true);
  });

  it("answers a bad argument with an error result naming the field; a NUL is the gateway's 400", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ limit: 2 }, /query/],
      [{ query: "x", limit: 0 }, /limit/],
      [{ query: ["x"] }, /query/],
    ];
    for (const [args, field] of cases) {
      const result = await client.callTool({ name: "arxiv_search", arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect((result.content as Text[])[0]!.text).toMatch(field);
    }
    // A NUL anywhere in the JSON-RPC message is refused by the gateway's own input rule (400 Form A), before MCP.
    const nul = client.callTool({ name: "arxiv_search", arguments: { query: "a\u0000b" } });
    await expect(nul).rejects.toThrow(/params\.arguments\.query/);
    const raw = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "arxiv_search", arguments: { query: "a\u0000b" } },
    });
    expect(raw.status).toBe(400);
    expect((await raw.json()).error).toMatch(/query/);
  });

  it("turns a tool's failure into an error result with its message", async () => {
    const result = await client.callTool({ name: "wikipedia_get_summary", arguments: { title: "Nobody" } });
    expect(result.isError).toBe(true);
    expect((result.content as Text[])[0]!.text).toBe("wikipedia has no such item");
  });

  it("answers an unknown tool with a protocol error naming it", async () => {
    const call = client.callTool({ name: "no_such_tool", arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toThrow(/no_such_tool/);
  });

  it("needs a key: 401 Form A without one or with a bad one, and the client fails to connect", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    for (const headers of [{}, { Authorization: "Bearer sk_nope" }] as Record<string, string>[]) {
      const res = await post(init, headers);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBeTruthy();
    }
    await expect(connect("sk_nope")).rejects.toThrow(/invalid API key/);
  });

  it("carries the key's rate-limit headers, refuses GET and DELETE (stateless: no stream, no session), caps the body", async () => {
    const res = await post({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    expect([...res.headers.keys()].some((name) => name.startsWith("x-ratelimit"))).toBe(true);
    expect((await res.json()).result.tools).toHaveLength(36);

    for (const method of ["GET", "DELETE"]) {
      const other = await fetch(endpoint, { method, headers: { Authorization: `Bearer ${t.key}` } });
      expect(other.status, method).toBe(405);
      expect(other.headers.get("allow")).toBe("POST");
    }

    const pad = "x".repeat(t.gw.rt.config.maxBodyBytes);
    const big = await post({ jsonrpc: "2.0", id: 8, method: "tools/list", params: { pad } });
    expect(big.status).toBe(413);
  });

  it("meters each MCP request under the tools area, at route /v1/mcp", async () => {
    const { key, id } = await t.gw.key({ minute: 1000 });
    const c = await connect(key);
    await c.callTool({ name: "wikipedia_search", arguments: { query: "ada" } });
    await c.close();
    await t.gw.rt.meter.flush();
    const events = await t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: id } });
    // initialize, the initialized notification (202), tools/call.
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.every((e) => e.route === "/v1/mcp" && e.area === "tools" && e.method === "POST")).toBe(true);
    expect(events.map((e) => e.status).sort()).toEqual(expect.arrayContaining([200, 202]));
    expect(events.filter((e) => e.status === 200).every((e) => e.bytesOut > 0)).toBe(true);

    const usage = await (await t.gw.request("/v1/usage", { headers: { "X-API-Key": key } })).json();
    expect(usage.by_route.find((r: { route: string }) => r.route === "/v1/mcp").requests).toBe(events.length);
  });
});
