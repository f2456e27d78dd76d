"use client";

import { useState } from "react";
import { exampleOf, typeLabel, type OpenApiDocument, type Operation } from "@/lib/portal/docs/openapi-view.ts";

type Result = { status: string; type: string; text: string } | { error: string };

const field =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-1.5 font-mono text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** At most this much of an answer is shown: a page is not the place for a whole large download. */
const SHOWN = 20_000;

/** An answer's body as text a person reads: JSON indented, text as it is, other bytes by their size. */
async function readAnswer(res: Response): Promise<{ type: string; text: string }> {
  const type = res.headers.get("content-type") ?? "";
  if (type.includes("json")) {
    const raw = await res.text();
    try {
      return { type, text: JSON.stringify(JSON.parse(raw), null, 2) };
    } catch {
      return { type, text: raw };
    }
  }
  if (type.startsWith("text/") || type === "") return { type, text: await res.text() };
  const bytes = (await res.arrayBuffer()).byteLength;
  return { type, text: `${bytes.toLocaleString("en-US")} bytes of ${type}` };
}

/**
 * Sends one operation from this page to this server with the key given at the top of the page (never
 * stored), and shows the answer as text: a JSON body starts from an example built from the operation's
 * schema; path and query parameters have a field each.
 */
export function TryIt({ doc, op, apiKey }: { doc: OpenApiDocument; op: Operation; apiKey: string }) {
  const jsonBody = op.body?.types.includes("application/json") ? op.body.schema : undefined;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      op.parameters.map((p) => {
        const example = p.required && p.schema ? exampleOf(doc, p.schema) : "";
        return [p.name, example === null || example === undefined ? "" : String(example)];
      }),
    ),
  );
  const [body, setBody] = useState(() => (jsonBody ? JSON.stringify(exampleOf(doc, jsonBody), null, 2) : ""));
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const other = op.body && !jsonBody;
  const id = (name: string) => `${op.anchor}-${name}`;

  async function send() {
    setBusy(true);
    setResult(null);
    try {
      let path = op.path;
      const query = new URLSearchParams();
      for (const p of op.parameters) {
        const value = values[p.name] ?? "";
        if (p.in === "path") path = path.replace(`{${p.name}}`, encodeURIComponent(value));
        else if (p.in === "query" && value !== "") query.set(p.name, value);
      }
      const headers: Record<string, string> = {};
      if (apiKey && op.auth !== "none") headers["X-API-Key"] = apiKey;
      if (jsonBody) headers["Content-Type"] = "application/json";
      const started = performance.now();
      const res = await fetch(`${path}${query.size ? `?${query}` : ""}`, {
        method: op.method,
        headers,
        body: jsonBody ? body : undefined,
      });
      const answer = await readAnswer(res);
      const ms = Math.round(performance.now() - started);
      setResult({
        status: `${res.status} ${res.statusText} · ${ms} ms`,
        type: answer.type,
        text:
          answer.text.length > SHOWN
            ? `${answer.text.slice(0, SHOWN)}\n… (cut: ${answer.text.length.toLocaleString("en-US")} characters in all)`
            : answer.text,
      });
    } catch (err) {
      setResult({ error: `The request did not complete: ${(err as Error).message}` });
    } finally {
      setBusy(false);
    }
  }

  if (other)
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This operation takes {op.body!.types.join(" or ")}: send it with curl or your HTTP client.
      </p>
    );
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {op.auth === "key" && !apiKey && (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          This operation needs a key: paste one in “Your API key” at the top of the page first.
        </p>
      )}
      {op.parameters.map((p) => (
        <div key={`${p.in}-${p.name}`}>
          <label htmlFor={id(p.name)} className="text-sm font-medium">
            <code>{p.name}</code>{" "}
            <span className="font-normal text-slate-700 dark:text-slate-300">
              ({p.in}
              {p.schema ? `, ${typeLabel(doc, p.schema)}` : ""}
              {p.required ? ", required" : ""})
            </span>
          </label>
          <input
            id={id(p.name)}
            value={values[p.name] ?? ""}
            required={p.required}
            onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
            className={field}
          />
        </div>
      ))}
      {jsonBody && (
        <div>
          <label htmlFor={id("body")} className="text-sm font-medium">
            Request body (JSON)
          </label>
          <textarea
            id={id("body")}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            rows={Math.min(16, body.split("\n").length + 1)}
            spellCheck={false}
            className={field}
          />
        </div>
      )}
      <button
        type="submit"
        disabled={busy}
        className="rounded-lg bg-indigo-700 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-600 disabled:opacity-60"
      >
        {busy ? "Sending…" : `Send ${op.method} ${op.path}`}
      </button>
      <div role="status" className="text-sm">
        {result && ("error" in result ? result.error : `${result.status}${result.type ? ` · ${result.type}` : ""}`)}
      </div>
      {result && !("error" in result) && (
        <pre
          tabIndex={0}
          aria-label={`Answer to ${op.method} ${op.path}`}
          className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 text-sm text-slate-100"
        >
          <code>{result.text}</code>
        </pre>
      )}
    </form>
  );
}
