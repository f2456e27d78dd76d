import type { Token, Tokens } from "marked";
import type { ReactNode } from "react";
import { headingId, linkTarget, plainText, type Catalogue, type Guide } from "./guides";

// A guide's Markdown as React elements, read by marked's lexer as the consoles' Markdown is: every piece
// of text goes through React, which escapes it, so HTML in a file shows as its source, never as markup.
// Unlike a model's answer, a guide keeps its outline (headings with ids, as GitHub gives them, so the
// files' own #fragments work), and its links between files become links between pages.

const link = "text-indigo-700 underline dark:text-indigo-300";
const codeSpan = "rounded bg-slate-100 px-1 font-mono text-[0.9em] break-words dark:bg-slate-800";

type Context = { file: string; catalogue: Catalogue; ids: Map<string, number> };

function inline(tokens: Token[] | undefined, ctx: Context, key = ""): ReactNode[] {
  return (tokens ?? []).map((t, i) => inlineToken(t, ctx, `${key}${i}`));
}

function inlineToken(t: Token, ctx: Context, key: string): ReactNode {
  switch (t.type) {
    case "strong":
      return <strong key={key}>{inline((t as Tokens.Strong).tokens, ctx, key)}</strong>;
    case "em":
      return <em key={key}>{inline((t as Tokens.Em).tokens, ctx, key)}</em>;
    case "del":
      return <del key={key}>{inline((t as Tokens.Del).tokens, ctx, key)}</del>;
    case "codespan":
      return (
        <code key={key} className={codeSpan}>
          {(t as Tokens.Codespan).text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link": {
      const l = t as Tokens.Link;
      const target = linkTarget(l.href, ctx.file, ctx.catalogue);
      const children = inline(l.tokens, ctx, key);
      if (target.kind === "none") return <span key={key}>{children}</span>;
      return (
        <a
          key={key}
          href={target.href}
          className={link}
          {...(target.kind === "external" ? { rel: "noopener noreferrer" } : {})}
        >
          {children}
        </a>
      );
    }
    case "image":
      // Never loaded: the description stands in for the picture.
      return <span key={key}>[image: {(t as Tokens.Image).text || "no description"}]</span>;
    case "text": {
      const text = t as Tokens.Text;
      return text.tokens ? <span key={key}>{inline(text.tokens, ctx, key)}</span> : text.text;
    }
    case "escape":
      return (t as Tokens.Escape).text;
    default:
      // Raw HTML and anything else: its source, as text.
      return t.raw;
  }
}

const HEADING = {
  2: "mt-10 scroll-mt-4 border-b border-slate-200 pb-1 text-2xl font-semibold dark:border-slate-800",
  3: "mt-8 scroll-mt-4 text-xl font-semibold",
  4: "mt-6 scroll-mt-4 text-lg font-semibold",
  5: "mt-4 scroll-mt-4 font-semibold",
  6: "mt-4 scroll-mt-4 font-semibold",
} as const;

function block(t: Token, ctx: Context, key: string): ReactNode {
  switch (t.type) {
    case "heading": {
      const h = t as Tokens.Heading;
      const id = headingId(plainText(h.tokens), ctx.ids);
      const children = inline(h.tokens, ctx, key);
      // The page's own h1 is the title above; a file's later "#" headings sit one level under it.
      const depth = Math.min(6, Math.max(2, h.depth)) as 2 | 3 | 4 | 5 | 6;
      const Tag = `h${depth}` as const;
      return (
        <Tag key={key} id={id} className={HEADING[depth]}>
          {children}
        </Tag>
      );
    }
    case "paragraph":
      return (
        <p key={key} className="mt-4 leading-7">
          {inline((t as Tokens.Paragraph).tokens, ctx, key)}
        </p>
      );
    case "list": {
      const list = t as Tokens.List;
      const items = list.items.map((item, i) => (
        <li key={`${key}-${i}`} className="mt-1 leading-7">
          {item.task && <span aria-hidden="true">{item.checked ? "☑ " : "☐ "}</span>}
          {blocks(item.tokens, ctx, `${key}-${i}-`)}
        </li>
      ));
      return list.ordered ? (
        <ol
          key={key}
          start={typeof list.start === "number" ? list.start : undefined}
          className="mt-4 list-decimal pl-6"
        >
          {items}
        </ol>
      ) : (
        <ul key={key} className="mt-4 list-disc pl-6">
          {items}
        </ul>
      );
    }
    case "code": {
      const c = t as Tokens.Code;
      const lang = (c.lang ?? "").split(/\s/)[0] ?? "";
      return (
        // A figure named by its language (its caption), or "Code" when the file gives none.
        <figure key={key} className="mt-4" {...(lang ? {} : { "aria-label": "Code" })}>
          {lang && (
            <figcaption className="text-xs font-medium tracking-wide text-slate-700 uppercase dark:text-slate-300">
              {lang}
            </figcaption>
          )}
          {/* Focusable: long lines scroll sideways, and a keyboard must be able to scroll them. */}
          <pre
            tabIndex={0}
            className="mt-1 overflow-x-auto rounded-lg bg-slate-900 p-3 text-sm leading-6 text-slate-100 dark:ring-1 dark:ring-slate-700"
          >
            <code>{c.text}</code>
          </pre>
        </figure>
      );
    }
    case "blockquote":
      return (
        <blockquote
          key={key}
          className="mt-4 border-l-4 border-slate-300 pl-4 text-slate-700 dark:border-slate-600 dark:text-slate-300"
        >
          {blocks((t as Tokens.Blockquote).tokens, ctx, `${key}-`)}
        </blockquote>
      );
    case "table": {
      const table = t as Tokens.Table;
      return (
        // Focusable: a wide table scrolls inside its own box, not the page.
        <div key={key} className="mt-4 overflow-x-auto" tabIndex={0}>
          <table className="min-w-full border-collapse text-left text-sm">
            <thead>
              <tr>
                {table.header.map((cell, i) => (
                  <th
                    key={i}
                    scope="col"
                    className="border-b-2 border-slate-300 bg-slate-50 px-3 py-2 font-semibold dark:border-slate-600 dark:bg-slate-900"
                  >
                    {inline(cell.tokens, ctx, `${key}h${i}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r} className="border-b border-slate-200 align-top dark:border-slate-800">
                  {row.map((cell, i) => (
                    <td key={i} className="px-3 py-2">
                      {inline(cell.tokens, ctx, `${key}r${r}c${i}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case "hr":
      return <hr key={key} className="mt-8 border-slate-300 dark:border-slate-700" />;
    case "space":
      return null;
    case "text": {
      // A list item's tight text.
      const text = t as Tokens.Text;
      return <span key={key}>{text.tokens ? inline(text.tokens, ctx, key) : text.text}</span>;
    }
    default:
      // Raw HTML blocks and anything else: the source, as text.
      return (
        <p key={key} className="mt-4 whitespace-pre-wrap">
          {t.raw}
        </p>
      );
  }
}

function blocks(tokens: Token[], ctx: Context, key = ""): ReactNode[] {
  return tokens.map((t, i) => block(t, ctx, `${key}${i}`));
}

/** The guide's body: everything after its title (the first heading, shown by the page as its h1). */
export function GuideBody({ guide, catalogue }: { guide: Guide; catalogue: Catalogue }) {
  const ctx: Context = { file: guide.file, catalogue, ids: new Map() };
  const title = guide.tokens.findIndex((t) => t.type === "heading");
  // The title's id is taken first, as GitHub counts it, so later headings get the ids the files link to.
  if (title !== -1) headingId(guide.title, ctx.ids);
  const body = guide.tokens.filter((_, i) => i !== title);
  return (
    <div className="min-w-0 [overflow-wrap:anywhere]" data-testid="guide-body">
      {blocks(body, ctx)}
    </div>
  );
}

/** The guide's second-level headings, for "On this page". */
export function outline(guide: Guide): Array<{ id: string; text: string }> {
  const ids = new Map<string, number>();
  const out: Array<{ id: string; text: string }> = [];
  const title = guide.tokens.findIndex((t) => t.type === "heading");
  guide.tokens.forEach((t, i) => {
    if (t.type !== "heading") return;
    const text = plainText((t as Tokens.Heading).tokens);
    const id = headingId(text, ids);
    if (i !== title && (t as Tokens.Heading).depth <= 2) out.push({ id, text });
  });
  return out;
}
