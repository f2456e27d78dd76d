import { z } from "zod";

/**
 * A branching story as a graph (SPEC "Story result") and the rules a playable one keeps. One module for
 * the gateway (checking what a model generated, lib/api/generate/story.ts) and the story console
 * (checking what a visitor pasted, lib/console/story.ts); plain zod, so the browser bundle stays small.
 */

export const NODE_TYPES = ["start", "story", "ending"] as const;

export const StoryNode = z.object({ id: z.string().min(1), text: z.string(), type: z.enum(NODE_TYPES) });
export const StoryConnection = z.object({ from: z.string(), to: z.string(), label: z.string().default("") });

/** The record's fields without the graph checks: what a check reads and what a repair may rewrite. */
export const StoryShape = z.object({
  title: z.string().default("Untitled story"),
  complexity: z.string().optional(),
  provider: z.string().optional(),
  nodes: z.array(StoryNode).min(1, "a story needs at least one node").max(500),
  connections: z.array(StoryConnection).max(2000),
});
export type StoryGraph = Pick<z.infer<typeof StoryShape>, "nodes" | "connections">;

/**
 * A story whose references hold (ids unique, every connection's ends exist), with each problem at its
 * path: the least a graph needs to be drawn, which is all a pasted story must be.
 */
export const Story = StoryShape.superRefine((story, ctx) => {
  const ids = new Set<string>();
  story.nodes.forEach((n, i) => {
    if (ids.has(n.id))
      ctx.addIssue({ code: "custom", path: ["nodes", i, "id"], message: `node id "${n.id}" appears twice` });
    ids.add(n.id);
  });
  story.connections.forEach((c, i) => {
    for (const end of ["from", "to"] as const) {
      if (!ids.has(c[end]))
        ctx.addIssue({
          code: "custom",
          path: ["connections", i, end],
          message: `connection ${end} "${c[end]}" is not a node id`,
        });
    }
  });
});
export type Story = z.infer<typeof Story>;

export const COMPLEXITIES = ["simple", "medium", "complex"] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

/**
 * How big a story of each complexity is (SPEC: simple 5–8 nodes, medium 10–15, complex 20+ with several
 * endings). "20+" gets a ceiling of 40 so a generated story stays within one answer's output tokens.
 */
export const BANDS: Record<Complexity, { minNodes: number; maxNodes: number; minEndings: number }> = {
  simple: { minNodes: 5, maxNodes: 8, minEndings: 1 },
  medium: { minNodes: 10, maxNodes: 15, minEndings: 1 },
  complex: { minNodes: 20, maxNodes: 40, minEndings: 2 },
};

/** Where the reader begins: the node with id "start", else the first start-typed node, else the first. */
export function startNode(story: StoryGraph): string {
  return (story.nodes.find((n) => n.id === "start") ?? story.nodes.find((n) => n.type === "start") ?? story.nodes[0]!)
    .id;
}

const quoted = (ids: Iterable<string>, max = 5) => {
  const all = [...ids];
  return (
    all
      .slice(0, max)
      .map((id) => `"${id}"`)
      .join(", ") + (all.length > max ? ` and ${all.length - max} more` : "")
  );
};

/** The ids reachable from `from` following `next` (a node's neighbours), `from` included. */
function reach(from: Iterable<string>, next: Map<string, string[]>): Set<string> {
  const seen = new Set(from);
  const queue = [...seen];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    for (const n of next.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}

/**
 * What keeps a story from being played start to end, each a sentence a model can act on (the repair
 * turn quotes them) and a person can read (the 502 names them). No problems = a playable story: the
 * first node is `start` (the only start node), ids are unique, every connection's ends exist, every node
 * is reachable from start, every non-ending node has a way on and every ending none, an ending can be
 * reached from every node (no loop without a way out), and with a band, the node and ending counts fit.
 */
export function storyProblems(story: StoryGraph, band?: Complexity): string[] {
  const problems: string[] = [];
  const { nodes, connections } = story;
  const ids = new Set(nodes.map((n) => n.id));

  const first = nodes[0];
  if (!first || first.id !== "start" || first.type !== "start")
    problems.push(
      `the first node must have id "start" and type "start" (it is ${first ? `"${first.id}" of type ${first.type}` : "missing"})`,
    );
  const otherStarts = nodes.slice(1).filter((n) => n.type === "start" && n.id !== "start");
  if (otherStarts.length)
    problems.push(
      `only the first node may have type "start"; change the type of ${quoted(otherStarts.map((n) => n.id))}`,
    );

  const repeated = new Set(nodes.map((n) => n.id).filter((id, i, all) => all.indexOf(id) !== i));
  if (repeated.size) problems.push(`node ids must be unique: ${quoted(repeated)} appear more than once`);

  const dangling = connections.filter((c) => !ids.has(c.from) || !ids.has(c.to));
  if (dangling.length)
    problems.push(
      `every connection must join two existing nodes: ${dangling
        .slice(0, 5)
        .map((c) => `"${c.from}" → "${c.to}"`)
        .join(", ")} name${dangling.length === 1 ? "s" : ""} a node that does not exist`,
    );

  const out = new Map<string, string[]>();
  const into = new Map<string, string[]>();
  for (const c of connections) {
    if (!ids.has(c.from) || !ids.has(c.to)) continue;
    out.set(c.from, [...(out.get(c.from) ?? []), c.to]);
    into.set(c.to, [...(into.get(c.to) ?? []), c.from]);
  }
  if (ids.has("start")) {
    const reachable = reach(["start"], out);
    const unreachable = [...ids].filter((id) => !reachable.has(id));
    if (unreachable.length)
      problems.push(`every node must be reachable from "start": no path leads to ${quoted(unreachable)}`);
  }
  const endings = nodes.filter((n) => n.type === "ending");
  const deadEnds = nodes.filter((n) => n.type !== "ending" && !out.has(n.id)).map((n) => n.id);
  if (deadEnds.length)
    problems.push(
      `every node that is not an ending needs at least one outgoing connection: ${quoted(deadEnds)} has none`,
    );
  const endingExits = endings.filter((n) => out.has(n.id)).map((n) => n.id);
  if (endingExits.length)
    problems.push(
      `an ending has no outgoing connections: remove those leaving ${quoted(endingExits)}, or make it a story node`,
    );
  // A loop with no way out: nodes that reach neither an ending nor a dead end (named above).
  const wayOut = reach([...endings.map((n) => n.id), ...deadEnds], into);
  const trapped = [...ids].filter((id) => !wayOut.has(id));
  if (endings.length && trapped.length)
    problems.push(`every node must lead to an ending: from ${quoted(trapped)} no path reaches one`);

  if (band) {
    const { minNodes, maxNodes, minEndings } = BANDS[band];
    if (nodes.length < minNodes || nodes.length > maxNodes)
      problems.push(`a ${band} story has ${minNodes} to ${maxNodes} nodes, this one has ${nodes.length}`);
    if (endings.length < minEndings)
      problems.push(
        `a ${band} story needs at least ${minEndings} ending node${minEndings === 1 ? "" : "s"} (type "ending"), this one has ${endings.length}`,
      );
  } else if (!endings.length) problems.push(`a story needs at least one ending node (type "ending")`);
  return problems;
}

/**
 * The one repair made without asking the model again: connections naming a node that does not exist
 * are dropped, but only when that leaves a story with no problems (apart from its size, which dropping
 * connections cannot change). Otherwise the story is returned as it was, for the repair turn to see.
 */
export function dropDanglingConnections<T extends StoryGraph>(story: T): T {
  const ids = new Set(story.nodes.map((n) => n.id));
  const connections = story.connections.filter((c) => ids.has(c.from) && ids.has(c.to));
  if (connections.length === story.connections.length) return story;
  const fixed = { ...story, connections };
  return storyProblems(fixed).length ? story : fixed;
}
