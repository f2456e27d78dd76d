import type { Etymon, Exploration } from "./explore.ts";
import { describeLanguage, ENGLISH, FAMILY_ORDER, type LanguageLegend } from "./languages.ts";

export const VIZ_TYPES = ["network", "mermaid", "matrix"] as const;
export const ADJ_TYPES = ["temporal", "linguistic", "semantic"] as const;
export type VizType = (typeof VIZ_TYPES)[number];
export type AdjType = (typeof ADJ_TYPES)[number];

export const NODE_TYPES = ["headword", "ancestor", "cognate", "cognate_word", "related"] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export const RELATIONS = ["ancestor_of", "cognate_of", "shares_root", "cites"] as const;
export type Relation = (typeof RELATIONS)[number];

export type GraphNode = {
  id: string;
  label: string;
  language: string;
  lang: string;
  type: NodeType;
  family: string;
  branch: string;
  era: number | null;
  period?: string;
};
export type GraphEdge = { source: string; target: string; relation: Relation };
export type EtymologyGraph = { nodes: GraphNode[]; edges: GraphEdge[] };

const formKey = (lang: string, form: string) => `form:${lang}|${form.toLowerCase()}`;
const wordKey = (word: string) => `word:${word}`;

/**
 * Nodes and edges for one explored word, in build order (ids n0, n1, … follow it, n0 is the
 * headword). Edges: each lineage form is `ancestor_of` the next and the last one of the headword;
 * the oldest lineage form (what GCIDE's "akin to" refers to) is `cognate_of` each sister form; the
 * headword `shares_root` with root cognates, and a sister form is `ancestor_of` the English words
 * descended from it (heart's L. cor → cordial); `cites` points from the citing word to the cited one;
 * a shared ancestor form is `ancestor_of` the related word descended from it.
 */
export function buildEtymologyGraph(exploration: Exploration, legend: LanguageLegend): EtymologyGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const ids = new Map<string, string>();
  const edgeKeys = new Set<string>();
  const english = describeLanguage(ENGLISH, legend);

  const node = (
    key: string,
    label: string,
    type: NodeType,
    lang: Omit<Etymon, "form" | "gloss" | "translit">,
  ): string => {
    const existing = ids.get(key);
    if (existing) return existing;
    const id = `n${nodes.length}`;
    ids.set(key, id);
    nodes.push({
      id,
      label,
      language: lang.language,
      lang: lang.lang,
      type,
      family: lang.family,
      branch: lang.branch,
      era: lang.era,
      ...(lang.period ? { period: lang.period } : {}),
    });
    return id;
  };
  const edge = (source: string, target: string, relation: Relation) => {
    const key = `${source}|${target}|${relation}`;
    if (source === target || edgeKeys.has(key)) return;
    edgeKeys.add(key);
    edges.push({ source, target, relation });
  };
  const englishLang = {
    lang: english.lang,
    language: english.name,
    family: english.family,
    branch: english.branch,
    era: english.era,
    ...(english.period ? { period: english.period } : {}),
  };
  const word = (w: string, type: NodeType) => node(wordKey(w), w, type, englishLang);

  const head = word(exploration.word, "headword");
  const chain = exploration.lineage.map((item) => node(formKey(item.lang, item.form), item.form, "ancestor", item));
  const ancestorIds = new Map(exploration.lineage.map((item, i) => [`${item.lang} ${item.form}`, chain[i]!]));
  chain.forEach((id, i) => edge(id, chain[i + 1] ?? head, "ancestor_of"));
  const anchor = chain[0] ?? head;
  const sisters = new Map(
    exploration.cognates.forms.map((item) => [
      `${item.lang} ${item.form}`,
      node(formKey(item.lang, item.form), item.form, "cognate", item),
    ]),
  );
  for (const sister of sisters.values()) edge(anchor, sister, "cognate_of");
  for (const cognate of exploration.cognates.headwords) {
    const other = word(cognate.word, "cognate_word");
    if (cognate.relation === "shares_root") edge(head, other, "shares_root");
    else edge(sisters.get(cognate.via) ?? head, other, "ancestor_of");
  }
  for (const rel of exploration.related) {
    const other = word(rel.word, "related");
    if (rel.relation === "cites") edge(head, other, "cites");
    else if (rel.relation === "cited_by") edge(other, head, "cites");
    else edge(ancestorIds.get(rel.via ?? "") ?? head, other, "ancestor_of");
  }
  return { nodes, edges };
}

const BRANCH_ORDER = [
  "Germanic (West)",
  "Germanic",
  "Italic",
  "Hellenic",
  "Celtic",
  "Balto-Slavic",
  "Indo-Iranian",
  "Armenian",
  "Albanian",
];
const rankOf = (list: readonly string[], value: string) => {
  const i = list.findIndex((entry) => value.startsWith(entry));
  return i === -1 ? list.length : i;
};
const byEra = (a: GraphNode, b: GraphNode) => (a.era ?? Number.POSITIVE_INFINITY) - (b.era ?? Number.POSITIVE_INFINITY);

/** Undirected hop count from the headword (n0); unreachable nodes come last. */
function distances(graph: EtymologyGraph): Map<string, number> {
  const neighbours = new Map<string, string[]>(graph.nodes.map((n) => [n.id, []]));
  for (const e of graph.edges) {
    neighbours.get(e.source)!.push(e.target);
    neighbours.get(e.target)!.push(e.source);
  }
  const dist = new Map<string, number>();
  const start = graph.nodes[0]?.id;
  if (start === undefined) return dist;
  dist.set(start, 0);
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const next of neighbours.get(id)!) {
      if (!dist.has(next)) {
        dist.set(next, dist.get(id)! + 1);
        queue.push(next);
      }
    }
  }
  return dist;
}

/**
 * The node order every viz form uses. temporal: by the language's era, oldest first. linguistic:
 * grouped by family (English's first), then branch (West Germanic first), then era. semantic: by hops from the headword,
 * then node type (ancestor, cognate form, cognate word, related). Ties keep build order.
 */
export function orderNodes(graph: EtymologyGraph, adjType: AdjType): GraphNode[] {
  const build = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const tie = (a: GraphNode, b: GraphNode) => build.get(a.id)! - build.get(b.id)!;
  const nodes = [...graph.nodes];
  if (adjType === "temporal") return nodes.sort((a, b) => byEra(a, b) || tie(a, b));
  if (adjType === "linguistic") {
    return nodes.sort(
      (a, b) =>
        rankOf(FAMILY_ORDER, a.family) - rankOf(FAMILY_ORDER, b.family) ||
        rankOf(BRANCH_ORDER, a.branch) - rankOf(BRANCH_ORDER, b.branch) ||
        a.branch.localeCompare(b.branch) ||
        byEra(a, b) ||
        tie(a, b),
    );
  }
  const dist = distances(graph);
  const hops = (n: GraphNode) => dist.get(n.id) ?? Number.POSITIVE_INFINITY;
  return nodes.sort(
    (a, b) => hops(a) - hops(b) || NODE_TYPES.indexOf(a.type) - NODE_TYPES.indexOf(b.type) || tie(a, b),
  );
}

export type NetworkView = { nodes: GraphNode[]; edges: GraphEdge[] };
export type MatrixView = { labels: string[]; ids: string[]; matrix: number[][] };

export function toNetwork(graph: EtymologyGraph, adjType: AdjType): NetworkView {
  return { nodes: orderNodes(graph, adjType), edges: graph.edges };
}

/** Directed 0/1 adjacency: matrix[i][j] = 1 when an edge runs from node i to node j. */
export function toMatrix(graph: EtymologyGraph, adjType: AdjType): MatrixView {
  const nodes = orderNodes(graph, adjType);
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const matrix = nodes.map(() => nodes.map(() => 0));
  for (const e of graph.edges) matrix[index.get(e.source)!]![index.get(e.target)!] = 1;
  return { labels: nodes.map((n) => `${n.label} (${n.language})`), ids: nodes.map((n) => n.id), matrix };
}

/** Mermaid labels are quoted; entity codes keep quotes, brackets, pipes and angle brackets literal. */
export function escapeMermaidLabel(text: string): string {
  const entities: Record<string, string> = {
    "#": "#35;",
    '"': "#quot;",
    "[": "#91;",
    "]": "#93;",
    "(": "#40;",
    ")": "#41;",
    "{": "#123;",
    "}": "#125;",
    "|": "#124;",
    "<": "#lt;",
    ">": "#gt;",
  };
  return text.replace(/\s+/g, " ").replace(/[#"[\](){}|<>]/g, (ch) => entities[ch]!);
}

/** A Mermaid flowchart, left to right: one declaration per node (in the adj_type order), then the edges. */
export function toMermaid(graph: EtymologyGraph, adjType: AdjType): string {
  const lines = ["flowchart LR"];
  for (const n of orderNodes(graph, adjType))
    lines.push(`    ${n.id}["${escapeMermaidLabel(`${n.label} (${n.language})`)}"]`);
  for (const e of graph.edges) lines.push(`    ${e.source} -->|${e.relation}| ${e.target}`);
  return lines.join("\n");
}

export type GraphView =
  | ({ viz_type: "network"; adj_type: AdjType } & NetworkView)
  | ({ viz_type: "matrix"; adj_type: AdjType } & MatrixView)
  | { viz_type: "mermaid"; adj_type: AdjType; mermaid: string };

/** The graph in the form the caller asked for, tagged with how it was built. */
export function renderGraph(graph: EtymologyGraph, vizType: VizType, adjType: AdjType): GraphView {
  if (vizType === "mermaid") return { viz_type: vizType, adj_type: adjType, mermaid: toMermaid(graph, adjType) };
  if (vizType === "matrix") return { viz_type: vizType, adj_type: adjType, ...toMatrix(graph, adjType) };
  return { viz_type: vizType, adj_type: adjType, ...toNetwork(graph, adjType) };
}
