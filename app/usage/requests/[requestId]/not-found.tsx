import { RequestNotFound } from "@/components/portal/request-detail";

export default function NotFound() {
  return <RequestNotFound base="/usage/requests" whose="your keys" />;
}
