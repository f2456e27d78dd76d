"use client";

import { useSyncExternalStore } from "react";
import { CodeTabs } from "@/components/code-tabs";
import { codeSamples, type ChatBody } from "@/lib/console/chat-request.ts";
import { completionSamples } from "@/lib/console/first-call.ts";

const noSubscription = () => () => {};

/**
 * "View code": the request Send would post now against this page's own origin (where the API is), with
 * the key read from the environment: as a chat completion (curl, the OpenAI and Anthropic SDKs), and as
 * the gateway's own `/v1/llm/chat` (curl, JavaScript, Python).
 */
export function ViewCode({ body }: { body: ChatBody }) {
  const origin = useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
  const completion = completionSamples(origin, {
    model: `${body.provider}/${body.model}`,
    messages: body.messages,
    temperature: body.temperature,
  });
  const own = codeSamples(origin, body).map((s) => ({ ...s, label: `Gateway API · ${s.label}` }));

  return (
    <details className="min-w-0 rounded-lg border border-slate-300 p-3 dark:border-slate-700">
      <summary className="cursor-pointer text-sm font-medium">View code</summary>
      <p className="mt-2 mb-3 text-sm text-slate-700 dark:text-slate-300">
        This conversation as one request, with the message you are typing. Set <code>API_KEY</code> to one of your keys
        first.
      </p>
      <CodeTabs samples={[...completion, ...own]} label="Language" testId="chat-code" />
    </details>
  );
}
