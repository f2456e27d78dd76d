import { z } from "@hono/zod-openapi";
import { gatewayRoute } from "../../gateway/http/route.ts";
import { jsonRequest, jsonResponse, keyedErrors } from "../../gateway/http/schemas.ts";
import { route, type Handler, type RouteDef } from "../../gateway/pipeline/route.ts";
import { GatewayError } from "../../errors.ts";
import {
  BANDS,
  COMPLEXITIES,
  dropDanglingConnections,
  NODE_TYPES,
  storyProblems,
  type Complexity,
} from "../../story-graph.ts";
import { providerErrors } from "../../llm/route-schemas.ts";
import { respondGenerated } from "./respond.ts";
import { runTemplate, StrictField, WarningsField, type Template } from "./template.ts";

export type StoryInput = { premise: string; genre?: string; complexity: Complexity };

const LENGTHS = ["short", "medium", "long"] as const;

/** Form A's length is a complexity band: short = simple (5–8 nodes), medium = medium, long = complex. */
export const LENGTH_BANDS: Record<(typeof LENGTHS)[number], Complexity> = {
  short: "simple",
  medium: "medium",
  long: "complex",
};

/**
 * What the model answers. Text is trimmed and capped, and a connection needs a label (it is the
 * reader's choice); the graph's rules are `storyProblems`, checked after.
 */
const StoryFields = z.object({
  title: z.string().trim().min(1).max(200),
  nodes: z
    .array(
      z.object({
        id: z.string().trim().min(1).max(64),
        text: z.string().trim().min(1).max(2000),
        type: z.enum(NODE_TYPES),
      }),
    )
    .min(1)
    .max(60),
  connections: z
    .array(
      z.object({
        from: z.string().trim().min(1).max(64),
        to: z.string().trim().min(1).max(64),
        label: z.string().trim().min(1).max(200),
      }),
    )
    .max(200),
});
// A connection to a node that does not exist is dropped when the story is playable without it, saving a repair turn.
const GeneratedStory = StoryFields.overwrite(dropDanglingConnections);

/**
 * What the model is sent: the band's node count, and as many connections as it takes to reach every
 * node from start (one fewer than the nodes). The graph's other rules are no schema's to say.
 */
export function storySentSchema(complexity: Complexity) {
  const { minNodes, maxNodes } = BANDS[complexity];
  return StoryFields.extend({
    nodes: StoryFields.shape.nodes.min(minNodes).max(maxNodes),
    connections: StoryFields.shape.connections.min(minNodes - 1),
  });
}

const bandSentence = (complexity: Complexity) => {
  const { minNodes, maxNodes, minEndings } = BANDS[complexity];
  return `${minNodes} to ${maxNodes} nodes, with ${minEndings === 1 ? "at least one ending" : `at least ${minEndings} different endings`}`;
};

export const storyTemplate: Template<StoryInput, typeof GeneratedStory> = {
  name: "story",
  system: [
    "You write branching interactive stories as a graph of nodes joined by connections.",
    // Not every provider is sent the schema (xai gets JSON mode only), so the shape is spelled out here.
    'Answer with one JSON object and nothing else: {"title": string, "nodes": [{"id": string, "text": string, "type": "start" | "story" | "ending"}], "connections": [{"from": node id, "to": node id, "label": string}]}.',
    'Each node is a passage: {id, text, type}. The first node has id "start" and type "start"; it is the only start node.',
    'A node of type "ending" ends the story and has no outgoing connections; every other node ("story") has at least one.',
    "Each connection {from, to, label} is a choice the reader can make at node `from`, worded in its label, leading to node `to`.",
    "Every connection joins two nodes that exist; every node can be reached from start, and every path can go on to an ending.",
    "Ids are short, unique and lower-case (letters, digits, hyphens). Passages are two to four vivid sentences.",
  ].join("\n"),
  prompt: (input) =>
    [
      `Write a branching story about: ${input.premise}`,
      input.genre ? `Genre: ${input.genre}.` : "",
      `Size: ${bandSentence(input.complexity)}.`,
      "Give it a title.",
    ]
      .filter(Boolean)
      .join("\n"),
  schema: GeneratedStory,
  sentSchema: (input) => storySentSchema(input.complexity),
  rules: (story, input) => storyProblems(story, input.complexity),
  // 40 nodes of a few sentences each, their connections, and the JSON around them.
  maxTokens: 12_000,
};

const Body = z.object({
  prompt: z.string().trim().min(1).max(4000).optional().openapi({ description: "Form A: what the story is about" }),
  genre: z.string().trim().max(100).optional().openapi({ description: "Form A" }),
  length: z
    .enum(LENGTHS)
    .optional()
    .openapi({ description: "Form A, default medium: short = 5–8 nodes, medium = 10–15, long = 20–40" }),
  description: z
    .string()
    .trim()
    .min(1)
    .max(4000)
    .optional()
    .openapi({ description: "Form B: what the story is about" }),
  complexity: z.enum(COMPLEXITIES).optional().openapi({
    description: "Form B, default medium: simple = 5–8 nodes, medium = 10–15, complex = 20–40 with at least 2 endings",
  }),
  provider: z.string().max(50).optional().openapi({ description: "Default xai" }),
  strict: StrictField,
});

const Result = z
  .object({
    title: z.string(),
    complexity: z.enum(COMPLEXITIES),
    genre: z.string().optional().openapi({ description: "Form A, when sent" }),
    length: z.enum(LENGTHS).optional().openapi({ description: "Form A" }),
    nodes: z.array(z.object({ id: z.string(), text: z.string(), type: z.enum(NODE_TYPES) })),
    connections: z.array(z.object({ from: z.string(), to: z.string(), label: z.string() })),
    provider: z.string(),
    warnings: WarningsField,
  })
  .openapi("Story");

const story = gatewayRoute("key", {
  method: "post",
  path: "/v1/generate/story",
  summary: "Generate a branching story graph (Form A: prompt, genre, length; Form B: description, complexity)",
  description:
    "The graph is checked: the first node is start, every connection joins existing nodes, every node is reachable " +
    "from start and leads to an ending, only endings lack a way on, and the node count fits the size. The model " +
    "gets one repair turn naming what is wrong; a story still broken after it is answered with `warnings` naming " +
    "the rules it breaks, or with `strict: true` a 502 naming them.",
  tags: ["Generate"],
  request: jsonRequest(Body),
  responses: {
    200: jsonResponse(Result, "The story: nodes, connections, and the size it was made to"),
    ...keyedErrors,
    ...providerErrors,
  },
});

const handleStory: Handler<typeof story> = async (c, { body }) => {
  // The form is the field the premise came in: prompt (A) or description (B); the answer follows it.
  if (body.prompt !== undefined && body.description !== undefined)
    throw new GatewayError(400, "invalid request: send prompt (Form A) or description (Form B), not both");
  const premise = body.prompt ?? body.description;
  if (premise === undefined)
    throw new GatewayError(400, "invalid request: prompt (Form A) or description (Form B) is required");
  const length = body.prompt !== undefined ? (body.length ?? "medium") : undefined;
  const complexity = length ? LENGTH_BANDS[length] : (body.complexity ?? "medium");
  const genre = length ? body.genre || undefined : undefined;
  const generated = await runTemplate(
    c,
    storyTemplate,
    { premise, genre, complexity },
    { provider: body.provider, strict: body.strict },
  );
  return respondGenerated(c, generated, {
    complexity,
    ...(length ? { length } : {}),
    ...(genre ? { genre } : {}),
  });
};

export const storyRoutes: RouteDef[] = [route(story, handleStory)];
