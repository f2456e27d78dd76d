import { describe, expect, it } from "vitest";
import { exploreWord } from "./explore.ts";
import {
  ADJ_TYPES,
  buildEtymologyGraph,
  escapeMermaidLabel,
  orderNodes,
  renderGraph,
  toMatrix,
  toMermaid,
  toNetwork,
  type EtymologyGraph,
} from "./graph.ts";
import { indexRecords } from "./store.ts";
import { etymologyRecord as rec } from "./test-fixtures.ts";

const legend = {
  "AS.": "Anglo-Saxon (Old English)",
  "OE.": "Old English (Middle English in Webster 1913 usage)",
  "L.": "Latin",
  "Gr.": "Greek",
  "Skr.": "Sanskrit",
  "G.": "German",
  "Goth.": "Gothic",
  "E.": "English",
};
const store = indexRecords(
  [
    rec("father", {
      etymology:
        "OE. fader, AS. fæder; akin to G. vater, Goth. fadar, L. pater, Gr. path`r, Skr. pitr. √75. Cf. {Paternal}.",
      lineage: [
        { lang: "OE.", form: "fader" },
        { lang: "AS.", form: "fæder" },
      ],
      cognates: [
        { lang: "G.", form: "vater" },
        { lang: "Goth.", form: "fadar" },
        { lang: "L.", form: "pater" },
        { lang: "Gr.", form: "πατηρ", translit: "pathr" },
        { lang: "Skr.", form: "pitr" },
      ],
    }),
    rec("paternal", { etymology: "L. paternus, fr. pater.", lineage: [{ lang: "L.", form: "paternus" }] }),
    rec("food", { etymology: "AS. fōda. √75." }),
    rec("padre", { etymology: 'Sp. "padre", from L. pater. See {Father}.', lineage: [{ lang: "L.", form: "pater" }] }),
    rec("fatherly", { etymology: "AS. fæder.", lineage: [{ lang: "AS.", form: "fæder" }] }),
  ],
  legend,
);
const graph = buildEtymologyGraph(exploreWord(store, "father")!, legend);
const byLabel = (g: EtymologyGraph, label: string) => g.nodes.find((n) => n.label === label)!.id;

/** Reads a flowchart back: every line is `flowchart LR`, a node declaration or an edge. */
function parseMermaid(text: string) {
  const [header, ...lines] = text.split("\n");
  const declared = new Map<string, string>();
  const edges: { source: string; target: string; relation: string }[] = [];
  for (const line of lines) {
    const node = /^ {4}(n\d+)\["([^"[\]]*)"\]$/.exec(line);
    const edge = /^ {4}(n\d+) -->\|([a-z_]+)\| (n\d+)$/.exec(line);
    if (node) {
      if (declared.has(node[1]!)) throw new Error(`${node[1]} declared twice`);
      declared.set(node[1]!, node[2]!);
    } else if (edge) edges.push({ source: edge[1]!, relation: edge[2]!, target: edge[3]! });
    else throw new Error(`not a flowchart line: ${line}`);
  }
  return { header, declared, edges };
}

describe("buildEtymologyGraph", () => {
  it("links the lineage oldest to newest into the headword", () => {
    const [head, fader, faeder] = ["father", "fader", "fæder"].map((l) => byLabel(graph, l));
    expect(head).toBe("n0");
    expect(graph.nodes[0]).toMatchObject({ type: "headword", language: "English", lang: "E." });
    expect(graph.edges).toContainEqual({ source: faeder, target: fader, relation: "ancestor_of" });
    expect(graph.edges).toContainEqual({ source: fader, target: head, relation: "ancestor_of" });
  });

  it("hangs the sister forms on the oldest lineage form and links related words", () => {
    const faeder = byLabel(graph, "fæder");
    expect(graph.edges.filter((e) => e.relation === "cognate_of").every((e) => e.source === faeder)).toBe(true);
    expect(graph.nodes.filter((n) => n.type === "cognate").map((n) => n.label)).toEqual([
      "vater",
      "fadar",
      "pater",
      "πατηρ",
      "pitr",
    ]);
    expect(graph.edges).toContainEqual({ source: "n0", target: byLabel(graph, "food"), relation: "shares_root" });
    expect(graph.nodes.find((n) => n.label === "padre")!.type).toBe("cognate_word");
    expect(graph.edges).toContainEqual({
      source: byLabel(graph, "pater"),
      target: byLabel(graph, "padre"),
      relation: "ancestor_of",
    });
    expect(graph.edges).toContainEqual({ source: "n0", target: byLabel(graph, "paternal"), relation: "cites" });
    expect(graph.edges).toContainEqual({ source: byLabel(graph, "padre"), target: "n0", relation: "cites" });
    expect(graph.edges).toContainEqual({ source: faeder, target: byLabel(graph, "fatherly"), relation: "ancestor_of" });
  });

  it("declares each node once and only links declared nodes", () => {
    const ids = graph.nodes.map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of graph.edges) expect(ids).toEqual(expect.arrayContaining([e.source, e.target]));
  });
});

describe("orderNodes", () => {
  const order = (adj: (typeof ADJ_TYPES)[number]) => orderNodes(graph, adj).map((n) => `${n.lang} ${n.label}`);

  it("temporal: oldest language first", () => {
    const nodes = orderNodes(graph, "temporal");
    expect(nodes.slice(0, 3).map((n) => n.lang)).toEqual(["Skr.", "Gr.", "L."]);
    const eras = nodes.map((n) => n.era!);
    expect(eras).toEqual([...eras].sort((a, b) => a - b));
  });

  it("linguistic: West Germanic first, then the other branches, each group contiguous", () => {
    expect(order("linguistic")).toEqual([
      // West Germanic, by era; German (c. 1500) ties with English and keeps its build position.
      "AS. fæder",
      "OE. fader",
      "E. father",
      "G. vater",
      "E. padre",
      "E. food",
      "E. paternal",
      "E. fatherly",
      "Goth. fadar",
      "L. pater",
      "Gr. πατηρ",
      "Skr. pitr",
    ]);
  });

  it("semantic: by hops from the headword, then node type", () => {
    const nodes = orderNodes(graph, "semantic");
    expect(nodes[0]!.label).toBe("father");
    expect(nodes.map((n) => n.label)).toEqual([
      "father",
      // one hop: the nearest ancestor, then cognate words, then related words
      "fader",
      "padre",
      "food",
      "paternal",
      // two hops: the Old English form, and Latin pater through padre
      "fæder",
      "pater",
      // three hops: the other sister forms, and a word descended from the shared ancestor form
      "vater",
      "fadar",
      "πατηρ",
      "pitr",
      "fatherly",
    ]);
  });

  it("every ordering is a permutation of the same nodes", () => {
    const ids = graph.nodes.map((n) => n.id).sort();
    for (const adj of ADJ_TYPES)
      expect(
        orderNodes(graph, adj)
          .map((n) => n.id)
          .sort(),
      ).toEqual(ids);
  });
});

describe("views", () => {
  it("network, matrix and mermaid carry the same nodes and edges in the same order", () => {
    for (const adj of ADJ_TYPES) {
      const network = toNetwork(graph, adj);
      const matrix = toMatrix(graph, adj);
      const mermaid = parseMermaid(toMermaid(graph, adj));
      const ids = network.nodes.map((n) => n.id);
      expect(matrix.ids).toEqual(ids);
      expect([...mermaid.declared.keys()]).toEqual(ids);
      expect(matrix.labels).toEqual(network.nodes.map((n) => `${n.label} (${n.language})`));
      expect(mermaid.edges).toEqual(network.edges);
      const fromMatrix = matrix.matrix.flatMap((row, i) => row.flatMap((v, j) => (v ? [`${ids[i]}>${ids[j]}`] : [])));
      expect(fromMatrix.sort()).toEqual([...new Set(network.edges.map((e) => `${e.source}>${e.target}`))].sort());
      expect(matrix.matrix.every((row) => row.length === ids.length && row.every((v) => v === 0 || v === 1))).toBe(
        true,
      );
    }
  });

  it("mermaid is a left-to-right flowchart whose edges only reference declared nodes", () => {
    const { header, declared, edges } = parseMermaid(toMermaid(graph, "temporal"));
    expect(header).toBe("flowchart LR");
    expect(declared.get("n0")).toBe("father #40;English#41;");
    for (const e of edges) {
      expect(declared.has(e.source)).toBe(true);
      expect(declared.has(e.target)).toBe(true);
    }
  });

  it("escapes quotes, brackets and pipes in labels", () => {
    expect(escapeMermaidLabel('a "b" [c] (d) {e} | <f> #g')).toBe(
      "a #quot;b#quot; #91;c#93; #40;d#41; #123;e#125; #124; #lt;f#gt; #35;g",
    );
    const tricky = buildEtymologyGraph(
      {
        ...exploreWord(store, "father")!,
        lineage: [{ lang: "L.", form: 'x"]y', language: "Latin", family: "Indo-European", branch: "Italic", era: -75 }],
      },
      legend,
    );
    expect(() => parseMermaid(toMermaid(tricky, "semantic"))).not.toThrow();
  });

  it("renderGraph tags each view with its viz_type and adj_type", () => {
    expect(renderGraph(graph, "network", "semantic")).toEqual({
      viz_type: "network",
      adj_type: "semantic",
      ...toNetwork(graph, "semantic"),
    });
    expect(renderGraph(graph, "matrix", "linguistic")).toEqual({
      viz_type: "matrix",
      adj_type: "linguistic",
      ...toMatrix(graph, "linguistic"),
    });
    expect(renderGraph(graph, "mermaid", "temporal")).toEqual({
      viz_type: "mermaid",
      adj_type: "temporal",
      mermaid: toMermaid(graph, "temporal"),
    });
  });

  it("a word with no etymology is a one-node graph", () => {
    const lone = buildEtymologyGraph(
      { ...exploreWord(store, "food")!, cognates: { forms: [], headwords: [] }, related: [] },
      legend,
    );
    expect(toMatrix(lone, "temporal")).toEqual({ labels: ["food (English)"], ids: ["n0"], matrix: [[0]] });
    expect(toMermaid(lone, "semantic")).toBe('flowchart LR\n    n0["food #40;English#41;"]');
  });
});
