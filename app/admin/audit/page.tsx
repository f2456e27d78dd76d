import type { Metadata } from "next";
import { AdminShell } from "@/components/portal/admin-shell";
import { ListProblem, ListSearch, Pager } from "@/components/portal/list-controls";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { auditListParams, auditPage, parseListParams } from "@/lib/portal/admin/lists.ts";
import { actionText, actorText, detailText, targetText } from "@/lib/portal/admin/audit-text.ts";
import { formatUtc } from "@/lib/portal/pages/format.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Audit log · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Every change to keys and requests, newest first: who (by address), what, to which key, in words. */
export default async function AdminAuditPage({ searchParams }: Props) {
  const session = await requireOperator("/admin/audit");
  if (!session) return <OperatorsOnly />;
  const parsed = parseListParams(auditListParams, await searchParams);
  const { rt } = await getGateway();
  const list = parsed.ok ? await auditPage(rt.db, parsed.params) : null;
  const q = parsed.ok ? parsed.params.q : undefined;

  return (
    <AdminShell current="/admin/audit" title="Audit log">
      <ListSearch
        action="/admin/audit"
        label="Search the audit log"
        q={q}
        placeholder="an address, an action such as key.revoke, or a key or request id"
      />
      {!parsed.ok && <ListProblem error={parsed.error} action="/admin/audit" />}
      {list && (
        <Section id="audit" className="mt-8" title={<>{`Entries (${list.total})`}</>}>
          {list.rows.length === 0 ? (
            <p className="mt-2 text-slate-700 dark:text-slate-300">No entries match.</p>
          ) : (
            <ol
              aria-label="Audit entries"
              className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-300 dark:divide-slate-800 dark:border-slate-700"
            >
              {list.rows.map((a) => {
                const detail = detailText(a.action, a.detail, list.names, a.target);
                return (
                  <li
                    key={String(a.id)}
                    className="grid gap-1 p-3 text-sm break-words sm:grid-cols-[10rem_1fr] sm:gap-4"
                  >
                    <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">
                      {formatUtc(a.createdAt)}
                    </span>
                    <div>
                      <p>
                        <strong>{actionText(a.action)}</strong> by {actorText(a.actor, list.names)}
                        {a.target ? <> · {targetText(a.target, list.names)}</> : null}{" "}
                        <code className="text-xs text-slate-700 dark:text-slate-300">{a.action}</code>
                      </p>
                      {detail && <p className="mt-0.5">{detail}</p>}
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
          <Pager
            base="/admin/audit"
            params={{ q }}
            page={list.page}
            pages={list.pages}
            total={list.total}
            noun={["entry", "entries"]}
          />
        </Section>
      )}
    </AdminShell>
  );
}
