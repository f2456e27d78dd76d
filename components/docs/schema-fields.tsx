import type { SchemaField } from "@/lib/portal/docs/openapi-view.ts";

/** An object's fields as a nested list: name, type, whether it is required, its limits and description. */
export function SchemaFields({ fields }: { fields: SchemaField[] }) {
  return (
    <ul className="mt-2 space-y-2 border-l-2 border-slate-300 pl-3 dark:border-slate-700">
      {fields.map((f) => (
        <li key={f.name} className="text-sm">
          <p className="break-words">
            <code className="font-semibold">{f.name}</code>{" "}
            <span className="text-slate-700 dark:text-slate-300">{f.type}</span>
            {f.required && <span className="ml-1 font-medium text-red-800 dark:text-red-300">required</span>}
          </p>
          {f.description && <p className="mt-0.5 text-slate-700 dark:text-slate-300">{f.description}</p>}
          {f.notes.length > 0 && (
            <p className="mt-0.5 break-words text-slate-700 dark:text-slate-300">{f.notes.join(" · ")}</p>
          )}
          {f.fields && <SchemaFields fields={f.fields} />}
          {f.forms?.map((form, i) => (
            <div key={i} className="mt-1">
              <p className="text-slate-700 dark:text-slate-300">
                Form {i + 1} of {f.forms!.length}: {form.label}
              </p>
              <SchemaFields fields={form.fields} />
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}
