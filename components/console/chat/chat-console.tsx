"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { v1Fetch, v1Json } from "@/lib/console/api.ts";
import { sseData, toChatEvent } from "@/lib/console/sse.ts";
import { ErrorState, Loading } from "../error-state";

type Model = { id: string; provider: string; tiers: string[]; default: boolean };
type Message = { role: "user" | "assistant"; content: string };
type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number };

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

export function ChatConsole() {
  const models = useQuery({ queryKey: ["llm-models"], queryFn: () => v1Json<{ models: Model[] }>("/v1/llm/models") });
  const providers = useMemo(() => [...new Set((models.data?.models ?? []).map((m) => m.provider))], [models.data]);
  const [provider, setProvider] = useState("");
  const [model, setModel] = useState("");
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState("");
  const [partial, setPartial] = useState<string | null>(null);
  const [finished, setFinished] = useState<{
    model?: string;
    provider?: string;
    usage?: Usage;
    stopped?: boolean;
  } | null>(null);
  const abort = useRef<AbortController | null>(null);

  const chosenProvider = provider || providers[0] || "";
  const providerModels = (models.data?.models ?? []).filter((m) => m.provider === chosenProvider);
  const chosenModel = model || providerModels.find((m) => m.default)?.id || providerModels[0]?.id || "";

  // Leaving the page ends the stream, so the provider stops generating for nobody.
  useEffect(() => () => abort.current?.abort(), []);

  const send = useMutation({
    mutationFn: async (history: Message[]) => {
      const controller = new AbortController();
      abort.current = controller;
      let text = "";
      setPartial("");
      setFinished(null);
      try {
        const res = await v1Fetch("/v1/llm/chat", {
          method: "POST",
          body: JSON.stringify({ messages: history, provider: chosenProvider, model: chosenModel, stream: true }),
          signal: controller.signal,
        });
        for await (const data of sseData(res.body!)) {
          const event = toChatEvent(data);
          if (event?.type === "delta") setPartial((text += event.content));
          else if (event?.type === "done")
            setFinished({ model: event.model, provider: event.provider, usage: event.usage });
          else if (event?.type === "error") throw new Error(event.message);
        }
      } catch (err) {
        if (!controller.signal.aborted) throw err;
        setFinished({ stopped: true });
      } finally {
        abort.current = null;
        if (text) setMessages((m) => [...m, { role: "assistant", content: text }]);
        setPartial(null);
      }
    },
  });

  const submit = () => {
    const content = draft.trim();
    if (!content || send.isPending) return;
    const history: Message[] = [...messages, { role: "user", content }];
    setMessages(history);
    setDraft("");
    send.mutate(history);
  };

  if (models.isPending) return <Loading label="Loading models…" />;
  if (models.isError) return <ErrorState error={models.error} what="Chat" />;
  if (providers.length === 0) {
    return (
      <div
        role="alert"
        data-error-kind="not-configured"
        className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        No language-model provider is configured on this server (set a provider key such as XAI_API_KEY).
      </div>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_1fr]">
      <fieldset className="flex flex-col gap-4" disabled={send.isPending}>
        <legend className="sr-only">Model</legend>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Provider
          <select
            className={field}
            value={chosenProvider}
            onChange={(e) => {
              setProvider(e.target.value);
              setModel("");
            }}
          >
            {providers.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Model
          <select className={field} value={chosenModel} onChange={(e) => setModel(e.target.value)}>
            {providerModels.map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
                {m.tiers.length > 0 ? ` (${m.tiers.join(", ")})` : ""}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => {
            setMessages([]);
            setFinished(null);
            send.reset();
          }}
          className="rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          New conversation
        </button>
      </fieldset>

      <section aria-label="Conversation" className="flex min-h-96 flex-col gap-4">
        <ol className="flex flex-1 flex-col gap-3" aria-live="polite">
          {messages.map((m, i) => (
            <li
              key={i}
              className={
                m.role === "user"
                  ? "self-end rounded-xl bg-indigo-700 px-4 py-2 text-white"
                  : "rounded-xl bg-slate-100 px-4 py-2 whitespace-pre-wrap dark:bg-slate-800"
              }
            >
              <span className="sr-only">{m.role === "user" ? "You:" : "Assistant:"} </span>
              {m.content}
            </li>
          ))}
          {partial !== null && (
            <li
              data-testid="streaming"
              className="rounded-xl bg-slate-100 px-4 py-2 whitespace-pre-wrap dark:bg-slate-800"
            >
              <span className="sr-only">Assistant (writing): </span>
              {partial || <span className="animate-pulse">…</span>}
            </li>
          )}
        </ol>
        {finished && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="chat-status">
            {finished.stopped
              ? "Stopped."
              : `${finished.provider ?? chosenProvider} · ${finished.model ?? chosenModel}${finished.usage ? ` · ${finished.usage.total_tokens} tokens` : ""}`}
          </p>
        )}
        {send.isError && <ErrorState error={send.error} what="Chat" />}
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
            Message
            <textarea
              className={`${field} min-h-20`}
              value={draft}
              maxLength={20_000}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey) {
                  e.preventDefault();
                  submit();
                }
              }}
            />
          </label>
          {send.isPending ? (
            <button
              type="button"
              onClick={() => abort.current?.abort()}
              className="rounded-lg bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-600"
            >
              Stop
            </button>
          ) : (
            <button
              type="submit"
              disabled={!draft.trim()}
              className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
            >
              Send
            </button>
          )}
        </form>
      </section>
    </div>
  );
}
