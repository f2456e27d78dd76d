"use client";

import { useActionState } from "react";
import { removeMyBudget, setMyBudget, type BudgetActionState } from "@/app/usage/actions";
import { describeBudgetUse, shareUsed, type BudgetMetricName } from "@/lib/usage/budget-text";
import { ActionMessages } from "./action-messages";

const input =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const primary = "rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60";
const secondary =
  "rounded-lg border border-slate-400 px-3 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

export type BudgetCardProps = {
  keyId: string;
  name: string;
  prefix: string;
  budget: { metric: BudgetMetricName; limit: number; hardStop: boolean; used: number; month: string } | null;
  ceilings: Record<BudgetMetricName, string>;
};

const METRIC_LABEL: Record<BudgetMetricName, string> = {
  requests: "Requests",
  tokens: "Tokens",
  cost: "Estimated cost (USD)",
};

type Standing = NonNullable<BudgetCardProps["budget"]>;

/** Where a key's budget stands this month, the bar drawn in the colour of where it stands. */
export function BudgetStanding({ name, budget }: { name: string; budget: Standing | null }) {
  if (!budget)
    return (
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        No budget: this key is limited by its daily and per-minute limits only.
      </p>
    );
  const share = shareUsed(budget.used, budget.limit);
  return (
    <div className="mt-2">
      <p className="text-sm">
        {budget.month}: {describeBudgetUse(budget.metric, budget.used, budget.limit)} ({Math.floor(share * 100)}%)
        {budget.hardStop ? " · hard stop: requests are refused (429) once it is used up" : " · alerts only"}
      </p>
      {/* Used up is red, past 80 % amber: never a full green bar. */}
      <progress
        className={`mt-1 h-2 w-full ${share >= 1 ? "accent-red-600" : share >= 0.8 ? "accent-amber-500" : "accent-indigo-600"}`}
        max={1}
        value={Math.min(1, share)}
        aria-label={`${name}: ${Math.floor(share * 100)}% of this month's budget used`}
      />
      {share >= 1 && (
        <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          Used up{budget.hardStop ? ": requests with this key are refused until next month." : "."}
        </p>
      )}
    </div>
  );
}

/** The forms that set, change or remove a key's monthly budget, within the operator's ceilings. */
export function BudgetEditor({ keyId, budget, ceilings }: Omit<BudgetCardProps, "name" | "prefix">) {
  const [state, action, pending] = useActionState<BudgetActionState, FormData>(setMyBudget, {});
  const [removed, remove, removing] = useActionState<BudgetActionState, FormData>(removeMyBudget, {});
  const id = (field: string) => `budget-${keyId}-${field}`;
  return (
    <>
      <form action={action} className="mt-3 grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end">
        <input type="hidden" name="keyId" value={keyId} />
        <div>
          <label htmlFor={id("metric")} className="text-sm font-medium">
            Budget in
          </label>
          <select id={id("metric")} name="metric" defaultValue={budget?.metric ?? "requests"} className={input}>
            {(Object.keys(METRIC_LABEL) as BudgetMetricName[]).map((m) => (
              <option key={m} value={m}>
                {METRIC_LABEL[m]} (at most {ceilings[m]})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={id("limit")} className="text-sm font-medium">
            Monthly limit
          </label>
          <input
            id={id("limit")}
            name="limit"
            inputMode="decimal"
            required
            defaultValue={budget?.limit}
            className={input}
          />
        </div>
        <label className="flex items-center gap-2 text-sm sm:pb-2">
          <input type="checkbox" name="hardStop" defaultChecked={budget?.hardStop ?? false} />
          Hard stop at 100 %
        </label>
        <button type="submit" className={primary} disabled={pending}>
          {budget ? "Update budget" : "Set budget"}
        </button>
      </form>
      <ActionMessages state={state} margin="mt-2" />
      {budget && (
        <form action={remove} className="mt-2">
          <input type="hidden" name="keyId" value={keyId} />
          <button type="submit" className={secondary} disabled={removing}>
            Remove budget
          </button>
          <ActionMessages state={removed} margin="mt-2" />
        </form>
      )}
    </>
  );
}

/** One key's monthly budget on the usage page: where it stands, and where it is changed (the key's card). */
export function BudgetCard({ name, prefix, budget }: Pick<BudgetCardProps, "name" | "prefix" | "budget">) {
  return (
    <li className="rounded-xl border border-slate-300 p-4 dark:border-slate-700" data-testid={`budget-${prefix}`}>
      <h3 className="font-semibold">
        {name} <code className="font-normal">{prefix}…</code>
      </h3>
      <BudgetStanding name={name} budget={budget} />
      <p className="mt-2 text-sm">
        <a href={`/keys#key-${prefix}`} className="text-indigo-700 underline dark:text-indigo-300">
          {budget ? "Change" : "Set"} it on the key&apos;s card
        </a>{" "}
        (under “Manage”).
      </p>
    </li>
  );
}
