"use client";

import { useActionState } from "react";
import { resetModelPrice, setModelPrice, type PriceActionState } from "@/app/admin/prices/actions";
import { ActionMessages } from "./action-messages";

const input =
  "mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const primary = "rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-60";
const secondary =
  "rounded-lg border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

/** Sets a model's price; the fields start from `initial` (a row's current price) or empty (a new model). */
export function PriceForm({
  initial,
}: {
  initial?: { provider: string; model: string; input: number; output: number };
}) {
  const [state, action, pending] = useActionState<PriceActionState, FormData>(setModelPrice, {});
  return (
    <form action={action} className="mt-3 grid max-w-3xl gap-3 sm:grid-cols-[1fr_1fr_8rem_8rem_auto] sm:items-end">
      <div>
        <label htmlFor="price-provider" className="text-sm font-medium">
          Provider
        </label>
        <input id="price-provider" name="provider" required defaultValue={initial?.provider} className={input} />
      </div>
      <div>
        <label htmlFor="price-model" className="text-sm font-medium">
          Model
        </label>
        <input id="price-model" name="model" required defaultValue={initial?.model} className={input} />
      </div>
      <div>
        <label htmlFor="price-input" className="text-sm font-medium">
          Input $ / 1M
        </label>
        <input
          id="price-input"
          name="input"
          inputMode="decimal"
          required
          defaultValue={initial?.input}
          className={input}
        />
      </div>
      <div>
        <label htmlFor="price-output" className="text-sm font-medium">
          Output $ / 1M
        </label>
        <input
          id="price-output"
          name="output"
          inputMode="decimal"
          required
          defaultValue={initial?.output}
          className={input}
        />
      </div>
      <button type="submit" className={primary} disabled={pending}>
        Save price
      </button>
      <div className="sm:col-span-5">
        <ActionMessages state={state} />
      </div>
    </form>
  );
}

/** Drops the operator's price for one model. */
export function ResetPriceButton({ provider, model }: { provider: string; model: string }) {
  const [state, action, pending] = useActionState<PriceActionState, FormData>(resetModelPrice, {});
  return (
    <form action={action}>
      <input type="hidden" name="provider" value={provider} />
      <input type="hidden" name="model" value={model} />
      <button
        type="submit"
        className={secondary}
        disabled={pending}
        aria-label={`Reset ${provider}/${model} to its default`}
      >
        Reset
      </button>
      <ActionMessages state={state} margin="mt-1" />
    </form>
  );
}
