import { graphlib, layout } from "@dagrejs/dagre";
import { z } from "zod";

/** A story graph (SPEC "Story result"): what /v1/generate/story returns and what a visitor may paste. */
export const Story = z
  .object({
    title: z.string().default("Untitled story"),
    complexity: z.string().optional(),
    provider: z.string().optional(),
    nodes: z
      .array(z.object({ id: z.string().min(1), text: z.string(), type: z.enum(["start", "story", "ending"]) }))
      .min(1, "a story needs at least one node")
      .max(500),
    connections: z.array(z.object({ from: z.string(), to: z.string(), label: z.string().default("") })).max(2000),
  })
  .superRefine((story, ctx) => {
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

/** Parses pasted text into a Story, or the first problems in words a person can act on. */
export function parseStory(text: string): { story: Story } | { errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { errors: [`not JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const parsed = Story.safeParse(json);
  if (parsed.success) return { story: parsed.data };
  return { errors: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "story"}: ${i.message}`) };
}

/** Where the reader begins: the node with id "start", else the first start-typed node, else the first. */
export function startNode(story: Story): string {
  return (story.nodes.find((n) => n.id === "start") ?? story.nodes.find((n) => n.type === "start") ?? story.nodes[0]!)
    .id;
}

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 90;

/** Top-to-bottom positions from dagre (node centres turned into top-left corners, as React Flow wants). */
export function layoutStory(story: Story): Map<string, { x: number; y: number }> {
  const g = new graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: "TB", nodesep: 40, ranksep: 70 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of story.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  story.connections.forEach((c, i) => g.setEdge(c.from, c.to, {}, String(i)));
  layout(g);
  return new Map(
    story.nodes.map((n) => {
      const { x, y } = g.node(n.id);
      return [n.id, { x: x - NODE_WIDTH / 2, y: y - NODE_HEIGHT / 2 }];
    }),
  );
}
