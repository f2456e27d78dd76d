import { RequestNotFound } from "@/components/portal/request-detail";

export default function NotFound() {
  return <RequestNotFound base="/admin/requests" whose="any key" />;
}
