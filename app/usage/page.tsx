import type { Metadata } from "next";
import { BudgetCard } from "@/components/portal/budget-forms";
import { PriceTable } from "@/components/portal/price-table";
import { Section } from "@/components/portal/section";
import { UsageDashboard } from "@/components/portal/usage-dashboard";
import { UsageTabs } from "@/components/portal/usage-tabs";
import { getGateway } from "@/lib/instance.ts";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";
import { budgetsOf, budgetStanding } from "@/lib/portal/usage/budgets.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";
import { listPrices } from "@/lib/usage/prices.ts";

export const metadata: Metadata = { title: "Your usage · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function UsagePage() {
  const session = await requireSession("/usage");
  const { rt } = await getGateway();
  const [keys, budgets] = await Promise.all([
    listKeys(rt.db, session.user.id),
    budgetsOf(rt.db, rt.budgets, session.user.id),
  ]);
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your usage</h1>
      <UsageTabs current="/usage" />
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        Your keys&apos; usage, the consoles included, over the period you choose (UTC days), grouped as you need. Counts
        are written in batches, so a call shows up within a few seconds; what is left today is live.
      </p>
      <UsageDashboard
        endpoint="/api/portal/usage"
        keys={keys.map((k) => ({ id: k.id, label: `${k.name} (${k.prefix}…)` }))}
        operator={false}
        logPath="/usage/requests"
        exportPath="/usage/export"
      />
      <Section id="budgets" className="mt-10" title="Monthly budgets">
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          A budget counts one key&apos;s requests, tokens or estimated cost in a calendar month (UTC). You get a mail at
          80 % and at 100 %, once each a month; with a hard stop, requests past 100 % are refused with 429 until the
          month ends or you raise the budget. Requests refused with 429 do not count. Estimated cost uses the{" "}
          <a href="#prices" className="text-indigo-700 underline dark:text-indigo-300">
            price table
          </a>
          .
        </p>
        {budgets.length === 0 ? (
          <p className="mt-3">You have no active keys yet.</p>
        ) : (
          <ul className="mt-3 space-y-3">
            {budgets.map((k) => (
              <BudgetCard key={k.id} name={k.name} prefix={k.prefix} budget={budgetStanding(k.status)} />
            ))}
          </ul>
        )}
      </Section>
      <Section id="prices" className="mt-10" title="Prices used for estimates">
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          USD per million tokens, set by the operator (defaults: the providers&apos; published list prices). A model
          answered under a dated or suffixed name is priced by the longest listed name it starts with; a model not
          listed has no estimated cost (shown as —).
        </p>
        <PriceTable rows={listPrices()} />
      </Section>
    </main>
  );
}
