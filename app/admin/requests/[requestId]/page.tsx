import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OperatorsOnly } from "@/components/portal/operators-only";
import { RequestDetail } from "@/components/portal/request-detail";
import { getGateway } from "@/lib/instance.ts";
import { requestDetailView, requestIdFromPath } from "@/lib/portal/usage/request-log.ts";
import { requireOperator } from "@/lib/portal/sign-in/session.ts";

export const metadata: Metadata = { title: "Request · Operator · Unified API Gateway" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ requestId: string }> };

export default async function AdminRequestPage({ params }: Props) {
  const requestId = requestIdFromPath((await params).requestId);
  const session = await requireOperator(`/admin/requests/${encodeURIComponent(requestId ?? "")}`);
  if (!session) return <OperatorsOnly />;
  if (!requestId) notFound();
  const { rt } = await getGateway();
  const detail = await requestDetailView(rt, { operator: true }, requestId);
  if (!detail) notFound();
  return (
    <RequestDetail
      base="/admin/requests"
      requestId={requestId}
      detail={detail}
      showOwner
      traceUrlTemplate={rt.config.traceUrlTemplate}
    />
  );
}
