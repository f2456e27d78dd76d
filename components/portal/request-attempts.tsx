import { attemptReason, OUTCOME_NAMES } from "@/lib/portal/usage/attempt-text.ts";
import type { RequestAttempt } from "@/lib/usage/request-attempts.ts";
import { DataTable } from "./data-table";

const cell = "px-3 py-2 align-top";

/**
 * A request's model-call attempts in the order the router made them, under an h3 (`headingId`) inside
 * its request's section: which deployment, what it answered, how long it took, and what happened next.
 */
export function RequestAttempts({ attempts, headingId }: { attempts: RequestAttempt[]; headingId: string }) {
  return (
    <>
      <h3 id={headingId} className="mt-6 text-lg font-semibold">
        Attempts ({attempts.length})
      </h3>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Each deployment the model router tried or skipped, in order. Only the attempt that answered is metered.
      </p>
      <DataTable
        margin="mt-3"
        label="Attempts"
        headers={["#", "Deployment", "Provider / model", "Status", "Duration", "Outcome", "Reason"]}
      >
        {attempts.map((a, i) => (
          <tr key={i} className="border-t border-slate-200 dark:border-slate-800" data-testid="attempt">
            <td className={cell}>{i + 1}</td>
            <td className={`${cell} whitespace-nowrap`}>
              <code>{a.deployment}</code>
            </td>
            <td className={`${cell} whitespace-nowrap`}>
              {a.provider}
              <span className="block">{a.model}</span>
            </td>
            <td className={cell}>{a.status ?? "—"}</td>
            <td className={`${cell} whitespace-nowrap`}>
              {a.outcome === "skipped" ? "—" : `${a.ms.toLocaleString("en")} ms`}
            </td>
            <td className={cell}>{OUTCOME_NAMES[a.outcome]}</td>
            <td className={cell}>{attemptReason(a, i === attempts.length - 1)}</td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
