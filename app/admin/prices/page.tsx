import type { Metadata } from "next";
import { AdminShell } from "@/components/portal/admin-shell";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { PriceForm, ResetPriceButton } from "@/components/portal/price-forms";
import { PriceTable } from "@/components/portal/price-table";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";
import { listPrices, loadPrices } from "@/lib/usage/prices.ts";

export const metadata: Metadata = { title: "Model prices · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function PricesPage() {
  const session = await requireOperator("/admin/prices");
  if (!session) return <OperatorsOnly />;
  const { rt } = await getGateway();
  // Another instance may have changed a price since this one's last refresh.
  await loadPrices(rt.db);
  const rows = listPrices();
  return (
    <AdminShell current="/admin/prices" title="Model prices">
      <p className="mt-4 max-w-3xl text-slate-700 dark:text-slate-300">
        One table prices every estimate: the request log, the usage dashboards, cost budgets and research results. USD
        per million tokens, input (prompt) and output (completion). Defaults come with the release; a price set here
        overrides one, or adds a model. Every instance picks a change up within <code>BUDGET_REFRESH_MS</code>. A model
        answered under a longer name (a dated id) is priced by the longest listed name it starts with.
      </p>
      <Section id="add-price" className="mt-8" title="Set a price">
        <PriceForm />
      </Section>
      <Section id="price-table" className="mt-10" title={<>Prices ({rows.length})</>}>
        <PriceTable
          rows={rows}
          actions={(r) => (r.source === "operator" ? <ResetPriceButton provider={r.provider} model={r.model} /> : null)}
        />
      </Section>
    </AdminShell>
  );
}
