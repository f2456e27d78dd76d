import type { Metadata } from "next";
import { KeyRequestForm } from "@/components/portal/key-forms";
import { getPortal } from "@/lib/portal/auth.ts";
import { requireSession } from "@/lib/portal/session.ts";

export const metadata: Metadata = { title: "Request a key · Unified API Gateway" };
export const dynamic = "force-dynamic";

export default async function RequestKeyPage() {
  await requireSession("/keys/request");
  const { config } = await getPortal();
  return (
    <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold">Request an API key</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        {config.autoApproveKeys
          ? "Keys are issued at once on this server. You will see the key once, right after you send the form."
          : "An operator reviews each request. Once it is approved, your keys page offers to create the key and shows it once."}
      </p>
      <KeyRequestForm autoApprove={config.autoApproveKeys} />
    </main>
  );
}
