import { describe, expect, it } from "vitest";
import { stripLayout } from "../lib/console/aac.ts";
import { ApiError, errorFrom } from "../lib/console/api.ts";
import {
  columnsOf,
  dataSource,
  filterVisualizations,
  fitToPanel,
  rowsOf,
  withValues,
  type Visualization,
} from "../lib/console/datavis.ts";
import { sseData, toChatEvent } from "../lib/console/sse.ts";
import { layoutStory, NODE_HEIGHT, parseStory, startNode } from "../lib/console/story.ts";

const stream = (chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(new TextEncoder().encode(chunk));
      c.close();
    },
  });

describe("console API errors", () => {
  it("reads Form B 429s with retry_after, and the Retry-After header when the body has none", async () => {
    const b = await errorFrom(
      new Response(JSON.stringify({ error: { code: "rate_limit_exceeded", message: "Too many", retry_after: 42 } }), {
        status: 429,
      }),
    );
    expect([b.kind, b.message, b.retryAfter]).toEqual(["rate-limited", "Too many", 42]);
    const h = await errorFrom(
      new Response(JSON.stringify({ error: "slow down" }), { status: 429, headers: { "retry-after": "9" } }),
    );
    expect([h.message, h.retryAfter]).toEqual(["slow down", 9]);
  });

  it("names each state the consoles show", async () => {
    const kinds = await Promise.all(
      [401, 503, 404, 400, 502].map(async (status) => (await errorFrom(new Response("not json", { status }))).kind),
    );
    expect(kinds).toEqual(["signed-out", "not-configured", "not-available", "invalid", "failed"]);
    expect(new ApiError(500, "x").retryAfter).toBeNull();
  });
});

describe("chat stream parsing", () => {
  it("reassembles events split across chunks and maps deltas, done and errors", async () => {
    const body = stream([
      'data: {"content":"Hel',
      'lo"}\n\ndata: {"content":" there"}\n',
      '\ndata: {"done":true,"model":"m","provider":"xai","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\n\n',
    ]);
    const events = [];
    for await (const data of sseData(body)) events.push(toChatEvent(data));
    expect(events).toEqual([
      { type: "delta", content: "Hello" },
      { type: "delta", content: " there" },
      { type: "done", model: "m", provider: "xai", usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } },
    ]);
    expect(toChatEvent('{"error":"provider failed","done":true}')).toEqual({
      type: "error",
      message: "provider failed",
    });
    expect(toChatEvent("[DONE]")).toBeNull();
  });
});

describe("story graphs", () => {
  const story = {
    title: "T",
    nodes: [
      { id: "a", text: "first", type: "story" },
      { id: "start", text: "begin", type: "start" },
      { id: "end", text: "over", type: "ending" },
    ],
    connections: [
      { from: "start", to: "a", label: "go" },
      { from: "a", to: "end", label: "finish" },
    ],
  };

  it("validates pasted JSON and names the broken references", () => {
    const ok = parseStory(JSON.stringify(story));
    expect("story" in ok && startNode(ok.story)).toBe("start");
    const bad = parseStory(JSON.stringify({ ...story, connections: [{ from: "start", to: "nowhere" }] }));
    expect(bad).toEqual({ errors: ['connections.0.to: connection to "nowhere" is not a node id'] });
    expect(parseStory("{nope")).toMatchObject({ errors: [expect.stringMatching(/^not JSON/)] });
  });

  it("lays nodes out top to bottom in story order", () => {
    const parsed = parseStory(JSON.stringify(story));
    if (!("story" in parsed)) throw new Error("parse failed");
    const pos = layoutStory(parsed.story);
    expect(pos.get("start")!.y).toBeLessThan(pos.get("a")!.y);
    expect(pos.get("a")!.y - pos.get("start")!.y).toBeGreaterThanOrEqual(NODE_HEIGHT);
    expect(pos.get("a")!.y).toBeLessThan(pos.get("end")!.y);
  });
});

describe("datavis helpers", () => {
  it("finds the rows of a trove-backed spec and inlines them", () => {
    const spec = { mark: "bar", data: { url: "/v1/trove/x/y?limit=5", format: { type: "json", property: "data" } } };
    expect(dataSource(spec)).toEqual({ url: "/v1/trove/x/y?limit=5", property: "data" });
    const rows = rowsOf({ data: [{ a: 1 }, { a: 2, b: "x" }] }, "data");
    expect(columnsOf(rows)).toEqual(["a", "b"]);
    expect(withValues(spec, rows)).toMatchObject({ mark: "bar", data: { values: rows }, width: "container" });
    expect(rowsOf({ nested: { rows: [1] } }, "nested.rows")).toEqual([1]);
  });

  it("fits a single view to the panel's width, even one the gallery sized at 400 px, but not a facet", () => {
    expect(fitToPanel({ mark: "bar", width: 400, height: 300 })).toEqual({
      mark: "bar",
      width: "container",
      height: 300,
      autosize: { type: "fit", contains: "padding" },
    });
    expect(fitToPanel({ layer: [], width: 400 })).toMatchObject({ width: "container" });
    const facet = { facet: { field: "x" }, spec: { mark: "bar", width: 120 } };
    expect(fitToPanel(facet)).toBe(facet);
  });

  it("filters by category and by every word of the search, in any case and order", () => {
    const vis = (name: string, title: string, category: string, description = ""): Visualization => ({
      name,
      title,
      category,
      description,
      spec: {},
    });
    const list = [
      vis("rain-by-city", "Rain by city", "ranking"),
      vis("rain-by-month", "Rain by month", "trend", "Mean rain per month"),
      vis("births", "Births per day", "trend", "US births"),
    ];
    const names = (c: string, q: string) => filterVisualizations(list, c, q).map((v) => v.name);
    expect(names("", "")).toEqual(["rain-by-city", "rain-by-month", "births"]);
    expect(names("", "CITY rain")).toEqual(["rain-by-city"]);
    expect(names("trend", "rain")).toEqual(["rain-by-month"]);
    expect(names("trend", "us")).toEqual(["births"]);
    expect(names("ranking", "births")).toEqual([]);
  });
});

describe("AAC strip layout", () => {
  it("wraps cards after six and sizes the canvas to hold them", () => {
    const l = stripLayout(8);
    expect(l.cards).toHaveLength(8);
    expect(l.cards[6]).toMatchObject({ x: l.cards[0]!.x });
    expect(l.cards[6]!.y).toBeGreaterThan(l.cards[5]!.y);
    expect(l.width).toBe(16 + 6 * 176);
    expect(l.height).toBe(16 + 2 * (196 + 16));
  });
});
