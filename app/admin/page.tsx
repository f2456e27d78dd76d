import type { Metadata } from "next";
import { DecisionForm } from "@/components/portal/admin-forms";
import { AdminShell } from "@/components/portal/admin-shell";
import { ListProblem, ListSearch, Pager } from "@/components/portal/list-controls";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { Section } from "@/components/portal/section";
import { getGateway } from "@/lib/instance.ts";
import { keyRequestsPage, parseListParams, requestListParams } from "@/lib/portal/admin/lists.ts";
import { formatUtc } from "@/lib/portal/pages/format.ts";
import { requestTerms } from "@/lib/portal/keys/request-terms.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Key requests · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_CHOICES: ReadonlyArray<[string, string]> = [
  ["pending", "Waiting"],
  ["decided", "Decided"],
  ["approved", "Approved"],
  ["declined", "Declined"],
  ["withdrawn", "Withdrawn"],
  ["all", "All"],
];

const TITLES: Record<string, string> = {
  pending: "Key requests waiting",
  decided: "Decided key requests",
  approved: "Approved key requests",
  declined: "Declined key requests",
  withdrawn: "Withdrawn key requests",
  all: "All key requests",
};

const badge = {
  pending: "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100",
  approved: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  declined: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100",
  withdrawn: "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100",
} as Record<string, string>;

/** The operator's first tab: the queue of key requests, and the decided ones with their notes. */
export default async function AdminPage({ searchParams }: Props) {
  const session = await requireOperator("/admin");
  if (!session) return <OperatorsOnly />;
  const parsed = parseListParams(requestListParams, await searchParams);
  const { rt } = await getGateway();
  const list = parsed.ok ? await keyRequestsPage(rt.db, parsed.params) : null;
  const status = parsed.ok ? parsed.params.status : "pending";
  const q = parsed.ok ? parsed.params.q : undefined;

  return (
    <AdminShell current="/admin" title="Key requests">
      <ListSearch
        action="/admin"
        label="Search key requests"
        q={q}
        placeholder="key name, requester's address, organisation or note"
        choice={{ name: "status", label: "Show", value: status, options: STATUS_CHOICES }}
      />
      {!parsed.ok && <ListProblem error={parsed.error} action="/admin" />}
      {list && (
        <Section id="requests" className="mt-8" title={<>{`${TITLES[status]} (${list.total})`}</>}>
          {list.rows.length === 0 ? (
            <p className="mt-2 text-slate-700 dark:text-slate-300">
              {status === "pending" && !q ? "Nothing to review." : "No requests match."}
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {list.rows.map((r) => (
                <li
                  key={r.id}
                  data-testid={`key-request-${r.id}`}
                  className="rounded-xl border border-slate-300 p-4 break-words dark:border-slate-700"
                >
                  <p className="flex flex-wrap items-center gap-2">
                    <strong>{r.name}</strong>
                    <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${badge[r.status] ?? ""}`}>
                      {r.status === "pending" ? "waiting" : r.status}
                    </span>
                  </p>
                  <p className="mt-1 text-sm">
                    For {r.user.email ?? r.userId} · {r.useType}
                    {r.organisation ? ` · ${r.organisation}` : ""} · asked {formatUtc(r.createdAt)}
                  </p>
                  <p className="mt-1 text-sm">{requestTerms(r)}</p>
                  <p className="mt-1 whitespace-pre-wrap text-sm">{r.intendedUse}</p>
                  {r.status === "pending" ? (
                    <DecisionForm id={r.id} name={r.name} email={r.user.email ?? r.userId} />
                  ) : (
                    <div className="mt-3 rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-800">
                      {r.status === "withdrawn" ? (
                        <p>Withdrawn by the requester on {formatUtc(r.decidedAt)}.</p>
                      ) : (
                        <>
                          <p>
                            {r.status === "approved" ? "Approved" : "Declined"} by {r.decidedBy ?? "—"} on{" "}
                            {formatUtc(r.decidedAt)}
                            {r.status === "approved" && (r.keyId ? "; the key was created." : "; not collected yet.")}
                          </p>
                          <p className="mt-1">{r.note ? `Note: “${r.note}”` : "No note."}</p>
                        </>
                      )}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
          <Pager
            base="/admin"
            params={{ q, status: status === "pending" ? undefined : status }}
            page={list.page}
            pages={list.pages}
            total={list.total}
            noun={["request", "requests"]}
          />
        </Section>
      )}
    </AdminShell>
  );
}
