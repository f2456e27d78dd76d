import type { Metadata } from "next";
import { KeyRequestForm } from "@/components/portal/key-forms";
import { decideByPolicy } from "@/lib/gateway/keys/approval.ts";
import { SCOPE_AREAS } from "@/lib/gateway/keys/record.ts";
import { requestIntro } from "@/lib/portal/keys/approval-text.ts";
import { getPortal } from "@/lib/portal/sign-in/auth.ts";
import { todayUtc } from "@/lib/portal/keys/expiry-day.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Request a key · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function RequestKeyPage() {
  const session = await requireSession("/keys/request");
  const { config } = await getPortal();
  const policy = config.keyApproval;
  const instant = decideByPolicy(policy, session.user.email).approved;
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">{instant ? "Create an API key" : "Request an API key"}</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">{requestIntro(policy, session.user.email)}</p>
      <KeyRequestForm instant={instant} areas={SCOPE_AREAS} today={todayUtc()} />
    </main>
  );
}
