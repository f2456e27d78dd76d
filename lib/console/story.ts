import { graphlib, layout } from "@dagrejs/dagre";
import { Story } from "../story-graph.ts";

export { startNode, Story } from "../story-graph.ts";

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
