import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { ChatConsole } from "@/components/console/chat/chat-console";
import { getGateway } from "@/lib/instance.ts";
import { listPrices } from "@/lib/usage/prices.ts";

export const metadata: Metadata = { title: "Chat console · Unified API Gateway" };
// The price table is the running server's (the operator's prices included): read per request.
export const dynamic = "force-dynamic";

export default async function ChatPage() {
  // The runtime loads the operator's prices into the table listPrices reads.
  await getGateway();
  const prices = listPrices().map(({ provider, model, input, output }) => ({ provider, model, input, output }));
  return (
    <ConsoleShell
      path="/console/chat"
      title="Chat console"
      intro="Talk to any configured language model through the gateway; replies stream as they are written."
      models="required"
    >
      <ChatConsole prices={prices} />
    </ConsoleShell>
  );
}
