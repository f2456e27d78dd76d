"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import type { Schemas } from "@/lib/client/index.ts";
import { consoleClient, dataOf } from "@/lib/console/api.ts";
import { chatBody, ChatSettings, type ChatTurn } from "@/lib/console/chat-request.ts";
import { sseData, toChatEvent } from "@/lib/console/sse.ts";
import { ErrorState, Loading } from "../error-state";
import { ChatPresets } from "./chat-presets";
import { CompareModels, type PriceRow } from "./compare-models";
import { ViewCode } from "./view-code";

type Message = ChatTurn;
type Usage = Schemas["Usage"];

const field =
  "rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";

/** `prices`: the price table, to estimate what each compared answer cost. */
export function ChatConsole({ prices }: { prices: PriceRow[] }) {
  const models = useQuery({ queryKey: ["llm-models"], queryFn: () => dataOf(consoleClient().GET("/v1/llm/models")) });
  const providers = useMemo(() => [...new Set((models.data?.models ?? []).map((m) => m.provider))], [models.data]);
  const [provider, setProvider] = useState("");
  const [model, setModel] = useState("");
  const [system, setSystem] = useState("");
  const [temperature, setTemperature] = useState("");
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

  const settings = ChatSettings.safeParse({ provider: chosenProvider, model: chosenModel, system, temperature });
  const settingsError = settings.success ? null : (settings.error.issues[0]?.message ?? "invalid settings");
  // What Send would post now: the conversation, plus the message being typed.
  const pending = draft.trim();
  const nextRequest = settings.success
    ? chatBody(settings.data, pending ? [...messages, { role: "user", content: pending }] : messages)
    : null;

  const send = useMutation({
    mutationFn: async (history: Message[]) => {
      if (!settings.success) throw new Error(settingsError ?? "invalid settings");
      const controller = new AbortController();
      abort.current = controller;
      let text = "";
      setPartial("");
      setFinished(null);
      try {
        // The answer as a stream: server-sent events, shown delta by delta as they arrive (not one JSON body).
        const stream = await dataOf(
          consoleClient().POST("/v1/llm/chat", {
            body: { ...chatBody(settings.data, history), stream: true },
            parseAs: "stream",
            signal: controller.signal,
          }),
        );
        for await (const data of sseData(stream!)) {
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
        // A turn that got no reply at all (stopped or failed before the first word) leaves the history,
        // so the next request does not carry two questions in a row; its text goes back to the box.
        else unanswered(history.at(-1)!);
        setPartial(null);
      }
    },
  });

  const unanswered = (turn: Message) => {
    setMessages((m) => (m.at(-1) === turn ? m.slice(0, -1) : m));
    setDraft((d) => d || turn.content);
  };

  const submit = () => {
    const content = draft.trim();
    if (!content || send.isPending || !settings.success) return;
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
        <legend className="sr-only">Settings</legend>
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
        <label className="flex flex-col gap-1 text-sm font-medium">
          System prompt
          <textarea
            className={`${field} min-h-24`}
            value={system}
            maxLength={20_000}
            placeholder="Optional: how the model should answer"
            onChange={(e) => setSystem(e.target.value)}
          />
        </label>
        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor="chat-temperature">Temperature</label>
          <input
            id="chat-temperature"
            type="number"
            inputMode="decimal"
            min={0}
            max={2}
            step={0.1}
            className={field}
            value={temperature}
            placeholder="Model default"
            aria-describedby="chat-temperature-help"
            aria-invalid={settingsError !== null && temperature !== ""}
            onChange={(e) => setTemperature(e.target.value)}
          />
          <span id="chat-temperature-help" className="text-xs font-normal text-slate-700 dark:text-slate-300">
            0 to 2; lower is steadier, higher more varied. Empty: the model&apos;s default.
          </span>
        </div>
        {settingsError && (
          <p role="alert" className="text-sm text-red-800 dark:text-red-200">
            {settingsError}
          </p>
        )}
        <ChatPresets
          current={{ provider: chosenProvider, model: chosenModel, system, temperature }}
          onLoad={(preset) => {
            const offered = (models.data?.models ?? []).some(
              (m) => m.provider === preset.provider && m.id === preset.model,
            );
            if (!offered) return `${preset.provider}/${preset.model} is not offered by this server now`;
            setProvider(preset.provider);
            setModel(preset.model);
            setSystem(preset.system);
            setTemperature(preset.temperature);
            return null;
          }}
        />
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

      <section aria-label="Conversation" className="flex min-h-96 min-w-0 flex-col gap-4">
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
              disabled={!draft.trim() || !settings.success}
              className="rounded-lg bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-600 disabled:opacity-50"
            >
              Send
            </button>
          )}
        </form>
        {nextRequest && <ViewCode body={nextRequest} />}
      </section>
      <CompareModels models={models.data?.models ?? []} prices={prices} system={system} temperature={temperature} />
    </div>
  );
}
