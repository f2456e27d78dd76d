import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RequestDetail } from "@/components/portal/request-detail";
import { getGateway } from "@/lib/instance.ts";
import { requestDetailView, requestIdFromPath } from "@/lib/portal/usage/request-log.ts";
import { requireSession } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Request · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ requestId: string }> };

export default async function RequestPage({ params }: Props) {
  const requestId = requestIdFromPath((await params).requestId);
  const session = await requireSession(`/usage/requests/${encodeURIComponent(requestId ?? "")}`);
  if (!requestId) notFound();
  const { rt } = await getGateway();
  const detail = await requestDetailView(rt, { owner: session.user.id }, requestId);
  // Another user's request reads exactly as one that does not exist.
  if (!detail) notFound();
  return (
    <RequestDetail
      base="/usage/requests"
      requestId={requestId}
      detail={detail}
      showOwner={false}
      traceUrlTemplate={rt.config.traceUrlTemplate}
    />
  );
}
