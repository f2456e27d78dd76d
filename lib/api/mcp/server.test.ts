import { z } from "@hono/zod-openapi";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { RateLimitError } from "../../errors.ts";
import { MemoryUpstreamCache, type UpstreamCache } from "../../upstream/cache.ts";
import type { AdmitToolCall } from "../../tools/tool.ts";
import { TOOLS } from "../../tools/tools.ts";
import { answerMcpRequest, callTool, createMcpServer, oversizedBatch, transportRequest } from "./server.ts";

// wikipedia_search answers from the search cache when it holds the query, so these run without a network.
const RECORDS = [{ id: "Ada Lovelace", title: "Ada Lovelace", source: "wikipedia" }];
async function warmCache(): Promise<UpstreamCache> {
  const cache = new MemoryUpstreamCache();
  await cache.set("search:wikipedia:10:ada", JSON.stringify(RECORDS), 60_000);
  return cache;
}
const ctx = async (signal = new AbortController().signal) => ({ cache: await warmCache(), signal });
const never = () => {
  throw new Error("unexpected() called");
};
const textOf = (result: { content: unknown }) => (result.content as Array<{ text: string }>)[0]!.text;

describe("callTool", () => {
  it("gives the result as JSON text and as structuredContent", async () => {
    const result = await callTool("wikipedia_search", { query: "ada" }, await ctx(), never);
    const expected = { source: "wikipedia", query: "ada", count: 1, results: RECORDS };
    expect(result).toEqual({
      content: [{ type: "text", text: JSON.stringify(expected) }],
      structuredContent: expected,
    });
  });

  it("answers bad arguments with an error result naming the field, NULs and lone surrogates included", async () => {
    for (const [args, field] of [
      [{}, "query"],
      [{ query: "x", limit: 99 }, "limit"],
      [{ query: "a\u0000b" }, "query"],
      [{ query: "\ud800" }, "query"],
      [undefined, "query"],
    ] as const) {
      const result = await callTool("wikipedia_search", args, await ctx(), never);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`^invalid request: ${field}: `));
    }
  });

  it("throws a protocol error (InvalidParams) for an unknown tool", async () => {
    const call = callTool("no_such_tool", {}, await ctx(), never);
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("no_such_tool") });
  });

  it("hides an error that is not a GatewayError behind what unexpected() returns, and hands it the error", async () => {
    const broken: UpstreamCache = {
      get: () => Promise.reject(new Error("redis password in here")),
      set: async () => {},
    };
    const unexpected = vi.fn(() => "internal server error (request id r1)");
    const signal = new AbortController().signal;
    const result = await callTool("wikipedia_search", { query: "ada" }, { cache: broken, signal }, unexpected);
    expect(result).toEqual({
      content: [{ type: "text", text: "internal server error (request id r1)" }],
      isError: true,
    });
    expect(unexpected).toHaveBeenCalledWith(expect.objectContaining({ message: "redis password in here" }));
  });

  it("does not start a tool for a caller that has gone", async () => {
    const aborted = new AbortController();
    aborted.abort();
    const unexpected = vi.fn(() => "request aborted");
    const result = await callTool("wikipedia_search", { query: "ada" }, await ctx(aborted.signal), unexpected);
    expect(result.isError).toBe(true);
    expect(unexpected).toHaveBeenCalledOnce();
  });
});

describe("createMcpServer", () => {
  it("lists every tool with the JSON Schema of its input, and calls them", async () => {
    const server = createMcpServer(await ctx(), never);
    const client = new Client({ name: "unit", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const [i, tool] of tools.entries()) {
      expect(tool.description).toBe(TOOLS[i]!.description);
      expect(tool.inputSchema).toEqual(z.toJSONSchema(TOOLS[i]!.input, { io: "input" }));
    }
    const result = await client.callTool({ name: "wikipedia_search", arguments: { query: "ada" } });
    expect(result.structuredContent).toMatchObject({ count: 1, results: RECORDS });
    await client.close();
  });
});

describe("createMcpServer: the tool calls of one request", () => {
  it("lets the request pay for its first tools/call and admits each later one; a refusal is an error result", async () => {
    const admitted: string[] = [];
    let left = 1;
    const admit: AdmitToolCall = async (tool) => {
      if (left-- <= 0)
        throw new RateLimitError("rate limit exceeded: the daily limit of 2 requests is used up", 42, "day");
      admitted.push(tool);
      return () => {};
    };
    const server = createMcpServer({ ...(await ctx()), admit }, never);
    const client = new Client({ name: "unit", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

    const call = () => client.callTool({ name: "wikipedia_search", arguments: { query: "ada" } });
    expect((await call()).isError).toBeFalsy();
    expect(admitted).toEqual([]);
    expect((await call()).isError).toBeFalsy();
    expect(admitted).toEqual(["wikipedia_search"]);
    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(textOf(refused as { content: unknown })).toBe(
      "rate limit exceeded: the daily limit of 2 requests is used up (retry after 42 s)",
    );
    await client.close();
  });
});

describe("oversizedBatch", () => {
  it("refuses a batch of more than the cap with a JSON-RPC Invalid Request naming it; passes the rest", async () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    expect(oversizedBatch(message, 2)).toBeUndefined();
    expect(oversizedBatch([message, message], 2)).toBeUndefined();
    const res = oversizedBatch([message, message, message], 2)!;
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: a batch may hold at most 2 messages (MCP_MAX_BATCH); this one has 3",
      },
    });
  });
});

describe("transportRequest", () => {
  const sent: Record<string, string> = {
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2025-06-18",
    authorization: "Bearer sk_secret",
  };

  it("is a POST to the URL with the headers the transport reads, and no others", () => {
    const request = transportRequest("http://gw.test/v1/mcp", (name) => sent[name]);
    expect(request.method).toBe("POST");
    expect(request.url).toBe("http://gw.test/v1/mcp");
    expect(Object.fromEntries(request.headers)).toEqual({
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2025-06-18",
    });
  });

  it("carries what the transport answers by: an Accept without event streams is its 406", async () => {
    const headers: Record<string, string> = { ...sent, accept: "application/json" };
    const request = transportRequest("http://gw.test/v1/mcp", (name) => headers[name]);
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    const res = await answerMcpRequest(request, message, await ctx(), never, 20);
    expect(res.status).toBe(406);
    const listed = await answerMcpRequest(
      transportRequest("http://gw.test/v1/mcp", (name) => sent[name]),
      message,
      await ctx(),
      never,
      20,
    );
    expect(listed.status).toBe(200);
    expect((await listed.json()).result.tools).toHaveLength(TOOLS.length);
    const notified = await answerMcpRequest(
      transportRequest("http://gw.test/v1/mcp", (name) => sent[name]),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      await ctx(),
      never,
      20,
    );
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe("");
  });
});
