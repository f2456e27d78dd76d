import Link from "next/link";
import type { ReactNode } from "react";

const field =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const link = "text-indigo-700 underline dark:text-indigo-300";

/**
 * A list's search: a plain GET form (works before any script, its URL can be shared), a text field
 * and, optionally, one choice. Searching starts again at page 1.
 */
export function ListSearch({
  action,
  label,
  q,
  placeholder,
  choice,
}: {
  action: string;
  /** Names the field, e.g. "Search keys" (the page's one search landmark needs no name of its own). */
  label: string;
  q: string | undefined;
  placeholder: string;
  choice?: { name: string; label: string; value: string; options: ReadonlyArray<[string, string]> };
}) {
  const id = `${action.replaceAll("/", "-").slice(1)}-q`;
  return (
    <form
      method="get"
      action={action}
      role="search"
      className="mt-6 grid gap-3 rounded-xl border border-slate-300 p-4 sm:grid-cols-[1fr_auto_auto] sm:items-end dark:border-slate-700"
    >
      <div>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        <input
          type="search"
          id={id}
          name="q"
          defaultValue={q}
          maxLength={200}
          placeholder={placeholder}
          autoComplete="off"
          className={field}
        />
      </div>
      {choice && (
        <div>
          <label htmlFor={`${id}-${choice.name}`} className="font-medium">
            {choice.label}
          </label>
          <select id={`${id}-${choice.name}`} name={choice.name} defaultValue={choice.value} className={field}>
            {choice.options.map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600">
          Search
        </button>
        <Link href={action} className={link}>
          Clear
        </Link>
      </div>
    </form>
  );
}

/** A query string for `base` with `params` (empty ones left out). */
export function listHref(base: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") query.set(k, String(v));
  const s = query.toString();
  return s ? `${base}?${s}` : base;
}

/** "Page 2 of 7 · 160 keys", with the previous and next pages as links that keep the search. */
export function Pager({
  base,
  params,
  page,
  pages,
  total,
  noun,
}: {
  base: string;
  params: Record<string, string | undefined>;
  page: number;
  pages: number;
  total: number;
  noun: [one: string, many: string];
}): ReactNode {
  if (total === 0) return null;
  return (
    <nav aria-label={`Pages of ${noun[1]}`} className="mt-4 flex flex-wrap items-center gap-3 text-sm">
      <span>
        Page {page} of {pages} · {total.toLocaleString("en")} {total === 1 ? noun[0] : noun[1]}
      </span>
      {page > 1 && (
        <Link href={listHref(base, { ...params, page: page - 1 })} className={link} rel="prev">
          Previous page
        </Link>
      )}
      {page < pages && (
        <Link href={listHref(base, { ...params, page: page + 1 })} className={link} rel="next">
          Next page
        </Link>
      )}
    </nav>
  );
}

/** A bad query string, named, with the way back to the list. */
export function ListProblem({ error, action }: { error: string; action: string }) {
  return (
    <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-400">
      This search cannot be read: {error}.{" "}
      <Link href={action} className={link}>
        Start again
      </Link>
    </p>
  );
}
