import type { Metadata } from "next";
import { ConsoleShell } from "@/components/console/console-shell";
import { ChatConsole } from "@/components/console/chat/chat-console";

export const metadata: Metadata = { title: "Chat console · Unified API Gateway" };

export default function ChatPage() {
  return (
    <ConsoleShell
      path="/console/chat"
      title="Chat console"
      intro="Talk to any configured language model through the gateway; replies stream as they are written."
      models="required"
    >
      <ChatConsole />
    </ConsoleShell>
  );
}
