import { TrieRouter } from "hono/router/trie-router";
import type { Result, Router } from "hono/router";
import { describe, expect, it } from "vitest";
import { MemoRouter } from "./memo-router.ts";

/** A TrieRouter that counts the matches it was asked for. */
function countingTrie(): Router<string> & { matches: number } {
  const trie = new TrieRouter<string>();
  const counting = {
    name: "counting",
    matches: 0,
    add: (method: string, path: string, handler: string) => trie.add(method, path, handler),
    match(method: string, path: string): Result<string> {
      counting.matches += 1;
      return trie.match(method, path);
    },
  };
  return counting;
}

const handlersOf = (r: Result<string>) => r[0].map(([h, params]) => [h, params]);

describe("MemoRouter", () => {
  it("answers what its router answers, parameters included, and matches a method and path once", () => {
    const inner = countingTrie();
    const router = new MemoRouter(inner);
    router.add("ALL", "*", "every");
    router.add("GET", "/v1/data/wikipedia/search", "wikipedia");
    router.add("GET", "/v1/data/:source/search", "generic");
    router.add("POST", "/v1/llm/chat", "chat");

    expect(handlersOf(router.match("GET", "/v1/data/wikipedia/search"))).toEqual([
      ["every", {}],
      ["wikipedia", {}],
      ["generic", { source: "wikipedia" }],
    ]);
    expect(handlersOf(router.match("GET", "/v1/data/nasa/search"))).toEqual([
      ["every", {}],
      ["generic", { source: "nasa" }],
    ]);
    expect(handlersOf(router.match("GET", "/v1/llm/chat"))).toEqual([["every", {}]]);
    expect(handlersOf(router.match("POST", "/v1/llm/chat"))).toEqual([
      ["every", {}],
      ["chat", {}],
    ]);
    expect(inner.matches).toBe(4);

    for (let i = 0; i < 10; i++) router.match("GET", "/v1/data/nasa/search");
    expect(handlersOf(router.match("GET", "/v1/data/nasa/search"))[1]).toEqual(["generic", { source: "nasa" }]);
    expect(inner.matches).toBe(4);
  });

  it("keeps a bounded number of paths: endless distinct paths cost re-matches, never memory", () => {
    const inner = countingTrie();
    const router = new MemoRouter(inner, 100);
    router.add("GET", "/v1/data/:source/get/:item", "get");
    for (let i = 0; i < 1000; i++) router.match("GET", `/v1/data/nasa/get/${i}`);
    expect(inner.matches).toBe(1000);
    // The last ones are still known; the first were let go when the cache started over.
    router.match("GET", "/v1/data/nasa/get/999");
    expect(inner.matches).toBe(1000);
    expect(handlersOf(router.match("GET", "/v1/data/nasa/get/0"))).toEqual([["get", { source: "nasa", item: "0" }]]);
    expect(inner.matches).toBe(1001);
  });

  it("does not keep very long paths, and forgets everything when a route is added", () => {
    const inner = countingTrie();
    const router = new MemoRouter(inner);
    router.add("GET", "/v1/echo/*", "echo");
    const long = `/v1/echo/${"a".repeat(600)}`;
    router.match("GET", long);
    router.match("GET", long);
    expect(inner.matches).toBe(2);

    router.match("GET", "/v1/echo/x");
    router.add("GET", "/v1/echo/x", "exact");
    expect(handlersOf(router.match("GET", "/v1/echo/x"))).toEqual([
      ["echo", {}],
      ["exact", {}],
    ]);
  });
});
