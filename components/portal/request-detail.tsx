import Link from "next/link";
import type { RequestDetailView } from "@/lib/portal/usage/request-log.ts";
import { RequestAttempts } from "./request-attempts";
import { RequestConversation } from "./request-conversation";
import { RequestFields, RequestTable } from "./request-log";
import { Section } from "./section";

const link = "text-sm text-indigo-700 underline dark:text-indigo-300";

/**
 * One request id's page: every field of each request recorded under it with its model call's attempts
 * when there was more than one, its conversation when its bodies were kept, and the model calls made for it.
 */
export function RequestDetail({
  base,
  requestId,
  detail,
  showOwner,
  traceUrlTemplate,
}: {
  base: string;
  requestId: string;
  detail: RequestDetailView;
  showOwner: boolean;
  /** TRACE_URL_TEMPLATE: each request's trace id links to the operator's trace viewer. */
  traceUrlTemplate?: string;
}) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <Link href={base} className={link}>
        ← Request log
      </Link>
      <h1 className="mt-3 text-3xl font-bold">Request</h1>
      <p className="mt-1 font-mono break-all text-slate-700 dark:text-slate-300">{requestId}</p>
      {detail.rows.length > 1 && (
        <p className="mt-3">
          {detail.rows.length} requests carry this id: a client may send its own <code>X-Request-Id</code>, which the
          gateway keeps. Newest first.
        </p>
      )}
      {detail.rows.map((row, i) => (
        <Section
          key={row.id ?? `pending-${i}`}
          id={`request-${i}`}
          className="mt-6"
          title={`${row.method} ${row.route}`}
        >
          <RequestFields row={row} showOwner={showOwner} traceUrlTemplate={traceUrlTemplate} />
          {row.attempts && <RequestAttempts attempts={row.attempts} headingId={`request-${i}-attempts`} />}
        </Section>
      ))}
      {detail.conversation && <RequestConversation conversation={detail.conversation} />}
      {detail.calls.length > 0 && (
        <Section id="calls" className="mt-10" title={`Model calls made for this request (${detail.calls.length})`}>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            A research run records each agent&apos;s call under <code>{requestId}:&lt;agent&gt;</code>, oldest first.
          </p>
          <RequestTable rows={detail.calls} base={base} showOwner={showOwner} />
        </Section>
      )}
    </main>
  );
}

/** A request id nobody in view has: the same words whether it never existed, expired, or is another user's. */
export function RequestNotFound({ base, whose }: { base: string; whose: string }) {
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <p className="text-sm font-medium uppercase tracking-wide text-indigo-700 dark:text-indigo-300">404</p>
      <h1 className="mt-2 text-3xl font-bold">No such request</h1>
      <p className="mt-3 max-w-2xl">
        No request of {whose} has this id. Requests are kept for the retention period the operator set (7 days unless
        changed); older ones count in the daily totals only.
      </p>
      <Link href={base} className={`mt-4 inline-block ${link}`}>
        Search the request log
      </Link>
    </main>
  );
}
