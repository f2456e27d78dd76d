"use client";

import {
  constraints,
  fieldsOf,
  typeLabel,
  type OpenApiDocument,
  type Operation,
  type SchemaField,
} from "@/lib/portal/docs/openapi-view.ts";
import { Disclosure } from "./disclosure";
import { SchemaFields } from "./schema-fields";
import { TryIt } from "./try-it";

const METHOD_STYLE: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  POST: "bg-indigo-100 text-indigo-900 dark:bg-indigo-900 dark:text-indigo-100",
  PUT: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  PATCH: "bg-purple-100 text-purple-900 dark:bg-purple-900 dark:text-purple-100",
  DELETE: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
};

/** Who may call it, in words. */
function authText(op: Operation): string {
  // The account and status routes are no area a key's scopes name: any key may call them.
  const scoped = op.area && op.area !== "account" && op.area !== "status";
  const area = scoped ? ` with the “${op.area}” area` : "";
  if (op.auth === "none") return "No key needed.";
  if (op.auth === "optional") return `A key is optional${area}: sent, the call counts against it.`;
  if (op.auth === "operator") return "Operators only.";
  return `Needs a key${area}.`;
}

/** One operation: its method and path, what it does, who may call it, its parameters, body, answers, and Try it. */
export function OperationCard({ doc, op, apiKey }: { doc: OpenApiDocument; op: Operation; apiKey: string }) {
  const parameters: SchemaField[] = op.parameters.map((p) => ({
    name: p.name,
    required: p.required ?? false,
    type: `${p.schema ? typeLabel(doc, p.schema) : "string"}, in ${p.in}`,
    notes: p.schema ? constraints(p.schema) : [],
    description: p.description ?? p.schema?.description,
  }));
  return (
    <article
      id={op.anchor}
      aria-labelledby={`${op.anchor}-title`}
      className="scroll-mt-4 rounded-xl border border-slate-300 p-4 dark:border-slate-700"
    >
      <h3 id={`${op.anchor}-title`} className="flex flex-wrap items-baseline gap-2 break-all">
        <span className={`rounded px-1.5 py-0.5 text-xs font-bold ${METHOD_STYLE[op.method] ?? ""}`}>{op.method}</span>
        <code className="text-base font-semibold">{op.path}</code>
      </h3>
      <p className="mt-1">{op.summary}</p>
      {op.description && <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{op.description}</p>}
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{authText(op)}</p>
      {parameters.length > 0 && (
        <>
          <h4 className="mt-3 text-sm font-semibold">Parameters</h4>
          <SchemaFields fields={parameters} />
        </>
      )}
      {op.body && (
        <Disclosure summary={`Request body (${op.body.types.join(", ")}${op.body.required ? ", required" : ""})`}>
          {() =>
            op.body?.schema ? (
              <SchemaFields fields={fieldsOf(doc, op.body.schema)} />
            ) : (
              <p className="text-sm">The file’s bytes as they are.</p>
            )
          }
        </Disclosure>
      )}
      <Disclosure summary={`Answers (${op.responses.map((r) => r.status).join(", ")})`}>
        {() => (
          <ul className="space-y-3">
            {op.responses.map((r) => {
              const fields = r.schema ? fieldsOf(doc, r.schema) : [];
              return (
                <li key={r.status} className="text-sm">
                  <p>
                    <strong>{r.status}</strong> {r.description}
                    {r.types.length > 0 && (
                      <span className="text-slate-700 dark:text-slate-300"> ({r.types.join(", ")})</span>
                    )}
                  </p>
                  {fields.length > 0 && <SchemaFields fields={fields} />}
                </li>
              );
            })}
          </ul>
        )}
      </Disclosure>
      <Disclosure summary={`Try ${op.method} ${op.path}`}>
        {() => <TryIt doc={doc} op={op} apiKey={apiKey} />}
      </Disclosure>
    </article>
  );
}
