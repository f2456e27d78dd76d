import { describe, expect, it } from "vitest";
import { dropDanglingConnections, startNode, Story, storyProblems, type StoryGraph } from "./story-graph.ts";

type Type = "start" | "story" | "ending";
const node = (id: string, type: Type = "story") => ({ id, text: `text of ${id}`, type });
const link = (from: string, to: string) => ({ from, to, label: `${from} to ${to}` });

/** start → a → b → … → end: a chain of `n` nodes, the last an ending. */
function chain(n: number): StoryGraph {
  const ids = ["start", ...Array.from({ length: n - 2 }, (_, i) => `n${i + 1}`), "end"];
  return {
    nodes: ids.map((id, i) => node(id, i === 0 ? "start" : i === ids.length - 1 ? "ending" : "story")),
    connections: ids.slice(1).map((id, i) => link(ids[i]!, id)),
  };
}

describe("storyProblems", () => {
  it("finds none in a playable story of the right size", () => {
    expect(storyProblems(chain(6), "simple")).toEqual([]);
    expect(storyProblems(chain(12), "medium")).toEqual([]);
    expect(storyProblems(chain(2))).toEqual([]);
  });

  it("wants the first node to be start", () => {
    const s = chain(6);
    s.nodes.reverse();
    expect(storyProblems(s, "simple")).toEqual([
      'the first node must have id "start" and type "start" (it is "end" of type ending)',
    ]);
    const twoStarts = chain(6);
    twoStarts.nodes[2]!.type = "start";
    expect(storyProblems(twoStarts, "simple")).toEqual([
      'only the first node may have type "start"; change the type of "n2"',
    ]);
  });

  it("names repeated ids and connections to nodes that do not exist", () => {
    const s = chain(6);
    s.nodes.push(node("n1"));
    s.connections.push(link("n2", "ghost"));
    expect(storyProblems(s, "simple")).toEqual([
      'node ids must be unique: "n1" appear more than once',
      'every connection must join two existing nodes: "n2" → "ghost" names a node that does not exist',
    ]);
  });

  it("names nodes unreachable from start, dead ends, endings that go on, and loops with no way out", () => {
    const s = chain(6);
    s.nodes.push(node("island", "ending"));
    expect(storyProblems(s, "simple")).toEqual([
      'every node must be reachable from "start": no path leads to "island"',
    ]);

    const deadEnd = chain(6);
    deadEnd.connections = deadEnd.connections.filter((c) => c.from !== "n2");
    expect(storyProblems(deadEnd, "simple")).toEqual([
      'every node must be reachable from "start": no path leads to "n3", "n4", "end"',
      'every node that is not an ending needs at least one outgoing connection: "n2" has none',
    ]);

    const goesOn = chain(6);
    goesOn.connections.push(link("end", "start"));
    expect(storyProblems(goesOn, "simple")).toEqual([
      'an ending has no outgoing connections: remove those leaving "end", or make it a story node',
    ]);

    // n1 ⇄ loop: both have a way on, but neither reaches an ending.
    const trap = chain(6);
    trap.nodes.push(node("loop"));
    trap.connections.push(link("n1", "loop"), link("loop", "n1"));
    trap.connections = trap.connections.filter((c) => !(c.from === "n1" && c.to === "n2"));
    expect(storyProblems(trap, "simple")).toEqual([
      'every node must be reachable from "start": no path leads to "n2", "n3", "n4", "end"',
      'every node must lead to an ending: from "start", "n1", "loop" no path reaches one',
    ]);
  });

  it("holds each complexity to its node band and endings", () => {
    expect(storyProblems(chain(9), "simple")).toEqual(["a simple story has 5 to 8 nodes, this one has 9"]);
    expect(storyProblems(chain(4), "simple")).toEqual(["a simple story has 5 to 8 nodes, this one has 4"]);
    expect(storyProblems(chain(16), "medium")).toEqual(["a medium story has 10 to 15 nodes, this one has 16"]);
    expect(storyProblems(chain(22), "complex")).toEqual([
      'a complex story needs at least 2 ending nodes (type "ending"), this one has 1',
    ]);
    const twoEndings = chain(22);
    twoEndings.nodes.push(node("other-end", "ending"));
    twoEndings.connections.push(link("n3", "other-end"));
    expect(storyProblems(twoEndings, "complex")).toEqual([]);
    expect(storyProblems(chain(41), "complex")).toContain("a complex story has 20 to 40 nodes, this one has 41");
    const noEnding = chain(6);
    noEnding.nodes[5]!.type = "story";
    noEnding.connections.push(link("end", "start"));
    expect(storyProblems(noEnding)).toEqual(['a story needs at least one ending node (type "ending")']);
  });
});

describe("dropDanglingConnections", () => {
  it("drops connections to missing nodes when the story is playable without them", () => {
    const s = chain(6);
    s.connections.push(link("n2", "ghost"), link("nowhere", "end"));
    expect(dropDanglingConnections(s)).toEqual(chain(6));
  });

  it("leaves the story as it was when dropping them would not make it playable", () => {
    const s = chain(6);
    s.connections = s.connections.map((c) => (c.from === "n2" ? link("n2", "ghost") : c));
    expect(dropDanglingConnections(s)).toBe(s);
    const fine = chain(6);
    expect(dropDanglingConnections(fine)).toBe(fine);
  });
});

describe("Story (a pasted story)", () => {
  it("needs only references that hold, with each problem at its path", () => {
    const ok = Story.safeParse({
      nodes: [node("a"), node("start", "start")],
      connections: [{ from: "start", to: "a" }],
    });
    expect(ok.success && ok.data).toMatchObject({ title: "Untitled story", connections: [{ label: "" }] });
    expect(ok.success && startNode(ok.data)).toBe("start");
    const bad = Story.safeParse({ nodes: [node("a"), node("a")], connections: [link("a", "b")] });
    expect(bad.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      'nodes.1.id: node id "a" appears twice',
      'connections.0.to: connection to "b" is not a node id',
    ]);
  });
});
