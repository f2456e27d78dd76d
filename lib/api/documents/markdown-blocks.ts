import { marked, type Token, type Tokens } from "marked";
import { GatewayError } from "../../errors.ts";

/** A run of text with its emphasis, the common ground of PDF and DOCX rendering. */
export type Span = { text: string; bold?: boolean; italic?: boolean; code?: boolean; strike?: boolean; link?: string };

export type Block =
  | { kind: "heading"; level: number; spans: Span[] }
  | { kind: "paragraph"; spans: Span[] }
  | { kind: "list"; items: Array<{ depth: number; ordered: boolean; index: number; spans: Span[] }> }
  | { kind: "code"; text: string }
  | { kind: "quote"; spans: Span[] }
  | { kind: "table"; header: Span[][]; rows: Span[][][] }
  | { kind: "rule" };

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (m) => ENTITIES[m] ?? m);

/**
 * Markdown (GFM) to a flat list of blocks; raw HTML is dropped, never rendered. marked recurses once
 * per level of nesting, so `> > > …` some thousands deep overflows the stack (how deep depends on the
 * worker's stack and on what V8 has optimised so far): that is the input's fault, a 400, not a 500.
 */
export function markdownBlocks(markdown: string): Block[] {
  try {
    return blocksOf(marked.lexer(markdown, { gfm: true }));
  } catch (err) {
    if (err instanceof RangeError && /call stack/.test(err.message))
      throw new GatewayError(400, "content is nested too deeply to render");
    throw err;
  }
}

function blocksOf(tokens: Token[]): Block[] {
  const blocks: Block[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case "heading":
        blocks.push({
          kind: "heading",
          level: (token as Tokens.Heading).depth,
          spans: spansOf((token as Tokens.Heading).tokens),
        });
        break;
      case "paragraph":
        blocks.push({ kind: "paragraph", spans: spansOf((token as Tokens.Paragraph).tokens) });
        break;
      case "text":
        blocks.push({
          kind: "paragraph",
          spans: spansOf(
            (token as Tokens.Text).tokens ?? [
              { type: "text", raw: token.raw, text: (token as Tokens.Text).text } as Tokens.Text,
            ],
          ),
        });
        break;
      case "list":
        blocks.push({ kind: "list", items: listItems(token as Tokens.List, 0) });
        break;
      case "code":
        blocks.push({ kind: "code", text: (token as Tokens.Code).text });
        break;
      case "blockquote":
        for (const inner of blocksOf((token as Tokens.Blockquote).tokens)) {
          if ("spans" in inner) blocks.push({ kind: "quote", spans: inner.spans });
        }
        break;
      case "table": {
        const t = token as Tokens.Table;
        blocks.push({
          kind: "table",
          header: t.header.map((c) => spansOf(c.tokens)),
          rows: t.rows.map((r) => r.map((c) => spansOf(c.tokens))),
        });
        break;
      }
      case "hr":
        blocks.push({ kind: "rule" });
        break;
      default:
        break;
    }
  }
  return blocks;
}

function listItems(
  list: Tokens.List,
  depth: number,
): Array<{ depth: number; ordered: boolean; index: number; spans: Span[] }> {
  const start = typeof list.start === "number" ? list.start : 1;
  return list.items.flatMap((item, i) => {
    const own: Span[] = [];
    const nested: Array<{ depth: number; ordered: boolean; index: number; spans: Span[] }> = [];
    for (const t of item.tokens) {
      if (t.type === "list") nested.push(...listItems(t as Tokens.List, depth + 1));
      else if ("tokens" in t && t.tokens) own.push(...spansOf(t.tokens));
      else if ("text" in t) own.push({ text: decode(String(t.text)) });
    }
    return [{ depth, ordered: list.ordered, index: start + i, spans: own }, ...nested];
  });
}

function spansOf(tokens: Token[] = [], style: Omit<Span, "text"> = {}): Span[] {
  const spans: Span[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case "strong":
        spans.push(...spansOf((t as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case "em":
        spans.push(...spansOf((t as Tokens.Em).tokens, { ...style, italic: true }));
        break;
      case "del":
        spans.push(...spansOf((t as Tokens.Del).tokens, { ...style, strike: true }));
        break;
      case "codespan":
        spans.push({ ...style, text: decode((t as Tokens.Codespan).text), code: true });
        break;
      case "link":
        spans.push(...spansOf((t as Tokens.Link).tokens, { ...style, link: (t as Tokens.Link).href }));
        break;
      case "br":
        spans.push({ ...style, text: "\n" });
        break;
      case "text":
        if ((t as Tokens.Text).tokens) spans.push(...spansOf((t as Tokens.Text).tokens, style));
        else spans.push({ ...style, text: decode((t as Tokens.Text).text) });
        break;
      case "escape":
        spans.push({ ...style, text: decode((t as Tokens.Escape).text) });
        break;
      case "image":
        spans.push({ ...style, text: (t as Tokens.Image).text || "[image]" });
        break;
      default:
        break;
    }
  }
  return spans;
}

export const plainText = (spans: Span[]) => spans.map((s) => s.text).join("");
