import type { Conversation } from "@/lib/portal/usage/conversation.ts";
import { Section } from "./section";

const bubble = "mt-1 whitespace-pre-wrap break-words rounded-lg border px-3 py-2";
const roleStyle: Record<string, string> = {
  system: "border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-900",
  user: "border-indigo-300 bg-indigo-50 dark:border-indigo-800 dark:bg-indigo-950",
  assistant: "border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950",
};

/** A body as kept, in a box of its own that scrolls (and takes focus, so a keyboard can scroll it). */
function Kept({ label, text }: { label: string; text: string }) {
  return (
    <details className="mt-3">
      <summary className="cursor-pointer font-medium">{label}</summary>
      <pre
        tabIndex={0}
        role="region"
        aria-label={label}
        className="mt-2 max-h-96 overflow-auto rounded-lg border border-slate-300 p-3 text-sm whitespace-pre-wrap break-words dark:border-slate-700"
      >
        {text}
      </pre>
    </details>
  );
}

/**
 * A model call's messages and answer as a conversation, and each body as it was kept: text only, never
 * markup, since both hold what callers and models wrote.
 */
export function RequestConversation({ conversation }: { conversation: Conversation }) {
  const { turns, answer } = conversation;
  return (
    <Section id="conversation" className="mt-10" title="Conversation">
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Kept because the operator keeps model calls&apos; bodies in the request log (REQUEST_LOG_BODIES), each cut at
        its size limit and deleted with the request&apos;s row.
      </p>
      {turns.length === 0 && answer === null ? (
        <p className="mt-3">
          This call&apos;s bodies are not in a form shown as a conversation; they are below as kept.
        </p>
      ) : (
        <ol className="mt-3 space-y-3" aria-label="Messages">
          {turns.map((t, i) => (
            <li key={i}>
              <span className="text-sm font-semibold">{t.role}</span>
              <div className={`${bubble} ${roleStyle[t.role] ?? roleStyle.system}`}>{t.text || "(no text)"}</div>
            </li>
          ))}
          {answer !== null && (
            <li>
              <span className="text-sm font-semibold">assistant (the answer)</span>
              <div className={`${bubble} ${roleStyle.assistant}`} data-testid="conversation-answer">
                {answer || "(no text)"}
              </div>
            </li>
          )}
        </ol>
      )}
      <Kept label="Request as sent" text={conversation.request} />
      {conversation.response !== null && <Kept label="Answer as sent" text={conversation.response} />}
    </Section>
  );
}
