import type { Metadata } from "next";
import Link from "next/link";
import { AdminShell } from "@/components/portal/admin-shell";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { UsageDashboard } from "@/components/portal/usage-dashboard";
import { getGateway } from "@/lib/instance.ts";
import { DataTable } from "@/components/portal/data-table";
import { Section } from "@/components/portal/section";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";
import { listTeams } from "@/lib/gateway/teams/team-changes.ts";
import { usageReport } from "@/lib/portal/usage/report.ts";
import { groupKeys } from "@/lib/portal/usage/summary.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Usage · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

/** Daily totals across every key, from the rollups (the request log tab has single requests). */
export default async function AdminUsagePage() {
  const session = await requireOperator("/admin/usage");
  if (!session) return <OperatorsOnly />;
  const { rt } = await getGateway();
  const [keys, organisations, report] = await Promise.all([listKeys(rt.db), listTeams(rt.db), usageReport(rt.db, {})]);
  // The last 30 days by organisation and team: every key counts in one row, so the rows add up.
  const byTeam = new Map(groupKeys(report.keys, (k) => k.team_id));
  const cell = "px-3 py-2";
  const rows = [
    ...organisations.flatMap((o) =>
      o.teams.map((t) => ({ organisation: o.name, team: t.name, counts: byTeam.get(t.id) })),
    ),
    { organisation: "—", team: "no team (personal keys)", counts: byTeam.get(null) },
  ].filter((r) => r.counts);
  return (
    <AdminShell current="/admin/usage" title="Usage, all keys">
      <p className="mt-4">
        Single requests, searchable by key, status, area, time and request id, are in the{" "}
        <Link href="/admin/requests" className="text-indigo-700 underline dark:text-indigo-300">
          request log
        </Link>
        . Estimated costs use{" "}
        <Link href="/admin/prices" className="text-indigo-700 underline dark:text-indigo-300">
          the model price table
        </Link>
        , which you can edit.
      </p>
      <UsageDashboard
        endpoint="/api/portal/admin/usage"
        keys={keys.map((k) => ({ id: k.id, label: `${k.name} (${k.prefix}…, ${k.email ?? "no owner"})` }))}
        operator
        logPath="/admin/requests"
        exportPath="/admin/usage/export"
      />
      {organisations.length > 0 && (
        <Section id="by-team" className="mt-8" title="By organisation and team, last 30 days">
          <DataTable
            margin="mt-3"
            label="Usage by organisation and team"
            headers={["Organisation", "Team", "Requests", "OK", "Errors", "Refused (429)"]}
          >
            {rows.map((r) => (
              <tr key={`${r.organisation}/${r.team}`} className="border-t border-slate-200 dark:border-slate-800">
                <td className={cell}>{r.organisation}</td>
                <td className={cell}>{r.team}</td>
                <td className={cell}>{r.counts!.requests.toLocaleString("en")}</td>
                <td className={cell}>{r.counts!.ok.toLocaleString("en")}</td>
                <td className={cell}>{(r.counts!.client + r.counts!.server).toLocaleString("en")}</td>
                <td className={cell}>{r.counts!.limited.toLocaleString("en")}</td>
              </tr>
            ))}
            <tr className="border-t border-slate-300 font-semibold dark:border-slate-700">
              <td className={cell} colSpan={2}>
                Total
              </td>
              <td className={cell}>{report.totals.requests.toLocaleString("en")}</td>
              <td className={cell}>{report.totals.ok.toLocaleString("en")}</td>
              <td className={cell}>{(report.totals.client + report.totals.server).toLocaleString("en")}</td>
              <td className={cell}>{report.totals.limited.toLocaleString("en")}</td>
            </tr>
          </DataTable>
        </Section>
      )}
    </AdminShell>
  );
}
