import { marked, type Token, type Tokens } from "marked";
import type { ReactNode } from "react";
import { safeHref } from "./research/research-result";

// A model's Markdown as React elements, never as HTML: every piece of text goes through React, which
// escapes it, so an answer that carries markup (or a prompt injected into a source) shows it as text.
// Links open only when http(s), with no referrer; images are shown by their description, never loaded
// (a third party's bytes, and a tracking pixel, stay off the page). Headings become bold paragraphs: an
// answer's "###" sits inside a page that has its own outline.

const link = "text-indigo-700 underline dark:text-indigo-300";
const code = "rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800";

function inline(tokens: Token[] | undefined, key = ""): ReactNode[] {
  return (tokens ?? []).map((t, i) => inlineToken(t, `${key}${i}`));
}

function inlineToken(t: Token, key: string): ReactNode {
  switch (t.type) {
    case "strong":
      return <strong key={key}>{inline((t as Tokens.Strong).tokens, key)}</strong>;
    case "em":
      return <em key={key}>{inline((t as Tokens.Em).tokens, key)}</em>;
    case "del":
      return <del key={key}>{inline((t as Tokens.Del).tokens, key)}</del>;
    case "codespan":
      return (
        <code key={key} className={code}>
          {(t as Tokens.Codespan).text}
        </code>
      );
    case "br":
      return <br key={key} />;
    case "link": {
      const l = t as Tokens.Link;
      const href = safeHref(l.href);
      return href ? (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className={link}>
          {inline(l.tokens, key)}
        </a>
      ) : (
        <span key={key}>{inline(l.tokens, key)}</span>
      );
    }
    case "image":
      return <span key={key}>[image: {(t as Tokens.Image).text || "no description"}]</span>;
    case "text": {
      const text = t as Tokens.Text;
      return text.tokens ? <span key={key}>{inline(text.tokens, key)}</span> : text.text;
    }
    case "escape":
      return (t as Tokens.Escape).text;
    default:
      // Raw HTML and anything else: its source, as text.
      return t.raw;
  }
}

function block(t: Token, key: string): ReactNode {
  switch (t.type) {
    case "heading":
      return (
        <p key={key} className="mt-3 font-semibold first:mt-0">
          {inline((t as Tokens.Heading).tokens, key)}
        </p>
      );
    case "paragraph":
      return (
        <p key={key} className="mt-2 first:mt-0">
          {inline((t as Tokens.Paragraph).tokens, key)}
        </p>
      );
    case "list": {
      const list = t as Tokens.List;
      const items = list.items.map((item, i) => <li key={`${key}-${i}`}>{blocks(item.tokens, `${key}-${i}-`)}</li>);
      return list.ordered ? (
        <ol
          key={key}
          start={typeof list.start === "number" ? list.start : undefined}
          className="mt-2 list-decimal pl-6"
        >
          {items}
        </ol>
      ) : (
        <ul key={key} className="mt-2 list-disc pl-6">
          {items}
        </ul>
      );
    }
    case "code":
      return (
        <pre
          key={key}
          className="mt-2 overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800"
          tabIndex={0}
        >
          <code>{(t as Tokens.Code).text}</code>
        </pre>
      );
    case "blockquote":
      return (
        <blockquote key={key} className="mt-2 border-l-4 border-slate-300 pl-3 dark:border-slate-600">
          {blocks((t as Tokens.Blockquote).tokens, `${key}-`)}
        </blockquote>
      );
    case "table": {
      const table = t as Tokens.Table;
      return (
        <div key={key} className="mt-2 overflow-x-auto" tabIndex={0}>
          <table className="text-sm">
            <thead>
              <tr>
                {table.header.map((cell, i) => (
                  <th key={i} className="border-b border-slate-300 px-2 text-left dark:border-slate-600">
                    {inline(cell.tokens, `${key}h${i}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} className="px-2">
                      {inline(cell.tokens, `${key}r${r}c${i}`)}
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
      return <hr key={key} className="mt-3 border-slate-300 dark:border-slate-600" />;
    case "space":
      return null;
    case "text": {
      // A list item's loose text.
      const text = t as Tokens.Text;
      return <span key={key}>{text.tokens ? inline(text.tokens, key) : text.text}</span>;
    }
    default:
      return (
        <p key={key} className="mt-2 whitespace-pre-wrap first:mt-0">
          {t.raw}
        </p>
      );
  }
}

function blocks(tokens: Token[], key = ""): ReactNode[] {
  return tokens.map((t, i) => block(t, `${key}${i}`));
}

/** `text` read as Markdown and shown safely; long unbroken words wrap instead of widening the page. */
export function Markdown({ text, className = "", testId }: { text: string; className?: string; testId?: string }) {
  return (
    <div className={`min-w-0 [overflow-wrap:anywhere] ${className}`} data-testid={testId}>
      {blocks(marked.lexer(text, { gfm: true }))}
    </div>
  );
}
