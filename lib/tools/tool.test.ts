import { z } from "@hono/zod-openapi";
import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it, vi } from "vitest";
import { GatewayError, RateLimitError } from "../errors.ts";
import { MemoryUpstreamCache } from "../upstream/cache.ts";
import { memoryTracing, spansUnder } from "../../test/support/memory-tracing.ts";
import { defineTool, runToolCall, type ToolContext } from "./tool.ts";

const echo = (run: (args: { x: string }) => Promise<unknown>) =>
  defineTool({ name: "demo_echo", module: "demo", description: "d", input: z.object({ x: z.string() }), run });
const ctx = (admit?: ToolContext["admit"]): ToolContext => ({
  cache: new MemoryUpstreamCache(),
  signal: new AbortController().signal,
  admit,
});

describe("runToolCall", () => {
  it("runs the tool as it is when the context admits nothing (the request was the call)", async () => {
    expect(
      await runToolCall(
        echo(async ({ x }) => x.toUpperCase()),
        { x: "a" },
        ctx(),
      ),
    ).toBe("A");
  });

  it("admits the call by the tool's name first, then meters its outcome: 200, a GatewayError's status, 500", async () => {
    const done = vi.fn();
    const admit = vi.fn(async () => done);
    expect(
      await runToolCall(
        echo(async () => "ok"),
        { x: "a" },
        ctx(admit),
      ),
    ).toBe("ok");
    expect(admit).toHaveBeenCalledWith("demo_echo");
    const missing = echo(() => Promise.reject(new GatewayError(404, "demo has no such item")));
    await expect(runToolCall(missing, { x: "a" }, ctx(admit))).rejects.toThrow("demo has no such item");
    await expect(
      runToolCall(
        echo(() => Promise.reject(new Error("bug"))),
        { x: "a" },
        ctx(admit),
      ),
    ).rejects.toThrow("bug");
    expect(done.mock.calls).toEqual([[200], [404], [500]]);
  });

  it("does not run a refused call: the refusal is what the caller gets", async () => {
    const run = vi.fn(async () => "never");
    const refusal = new RateLimitError("rate limit exceeded", 30, "day");
    const call = runToolCall(
      echo(run),
      { x: "a" },
      ctx(() => Promise.reject(refusal)),
    );
    await expect(call).rejects.toBe(refusal);
    expect(run).not.toHaveBeenCalled();
  });

  it("traced, a call is an execute_tool span under the caller's, its run given that span; a failure is its status", async () => {
    const t = memoryTracing();
    const root = t.root();
    const seen: ToolContext[] = [];
    const tool = defineTool({
      name: "demo_echo",
      module: "demo",
      description: "d",
      input: z.object({ x: z.string() }),
      run: async ({ x }, c) => {
        seen.push(c);
        if (x === "missing") throw new GatewayError(404, "demo has no such item");
        return x;
      },
    });
    const traced = { ...ctx(), trace: root };
    await runToolCall(tool, { x: "a" }, traced);
    await expect(runToolCall(tool, { x: "missing" }, traced)).rejects.toThrow("no such item");
    root.end();
    const spans = await t.spans();
    const calls = spansUnder(
      spans,
      spans.find((s) => s.name === "test")!,
    );
    expect(
      calls.map((s) => [s.name, s.attributes["gen_ai.tool.name"], s.status.code, s.attributes["error.type"]]),
    ).toEqual([
      ["execute_tool demo_echo", "demo_echo", SpanStatusCode.UNSET, undefined],
      ["execute_tool demo_echo", "demo_echo", SpanStatusCode.ERROR, "404"],
    ]);
    expect(seen.map((c) => c.trace?.span.spanContext().spanId)).toEqual(calls.map((s) => s.spanContext().spanId));
  });
});
