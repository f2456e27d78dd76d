import type { Metadata } from "next";
import { RequestLog } from "@/components/portal/request-log";
import { UsageTabs } from "@/components/portal/usage-tabs";
import { getGateway } from "@/lib/instance.ts";
import { parseRequestLogParams, requestLogView } from "@/lib/portal/usage/request-log.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";
import { listKeys } from "@/lib/gateway/keys/key-list.ts";

export const metadata: Metadata = { title: "Your requests · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function RequestsPage({ searchParams }: Props) {
  const session = await requireSession("/usage/requests");
  const parsed = parseRequestLogParams(await searchParams);
  const { rt } = await getGateway();
  const scope = { owner: session.user.id };
  const view = parsed.ok ? await requestLogView(rt, scope, parsed.params) : null;
  return (
    <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Your usage</h1>
      <UsageTabs current="/usage/requests" />
      <p className="mt-4 text-slate-700 dark:text-slate-300">
        Every request made with your keys, the consoles included, over the last {rt.config.requestLogRetentionDays} days
        (UTC). Paste the <code>X-Request-Id</code> header of a response to find that request; one made a moment ago is
        found too.
        {rt.config.meter.logPerKeySecond > 0 &&
          ` A key sending more than ${rt.config.meter.logPerKeySecond} requests a second has only that many a second listed here; the usage totals count every one.`}
      </p>
      <RequestLog
        base="/usage/requests"
        parsed={parsed}
        view={view}
        keys={view?.keys ?? (await listKeys(rt.db, session.user.id))}
        showOwner={false}
      />
    </main>
  );
}
