"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useReducer, useRef, useState } from "react";
import { consoleClient, dataOf } from "@/lib/console/api.ts";
import { ErrorState, Loading } from "../error-state";
import { cancelResearch, followStream, startResearch, type ResearchForm as Form } from "./research-api";
import { ResearchForm } from "./research-form";
import { ResearchResultView } from "./research-result-view";
import { describeRun, IDLE, isTerminal, reduceRun, stateWord } from "./research-tree";

// React Flow measures the DOM: it renders in the browser only, after the shell.
const ResearchGraph = dynamic(() => import("./research-graph").then((m) => m.ResearchGraph), {
  ssr: false,
  loading: () => <Loading label="Drawing the tree…" />,
});

const button =
  "rounded-lg border border-slate-400 px-3 py-2 text-sm hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

export function ResearchConsole() {
  const models = useQuery({
    queryKey: ["llm-models"],
    queryFn: () => dataOf(consoleClient().GET("/v1/llm/models")),
  });
  const providers = useMemo(() => [...new Set((models.data?.models ?? []).map((m) => m.provider))], [models.data]);
  const [run, dispatch] = useReducer(reduceRun, IDLE);
  const [failure, setFailure] = useState<{ error: unknown; what: string } | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const watching = useRef<AbortController | null>(null);

  // Leaving the page stops watching; the task itself is durable and runs on.
  useEffect(() => () => watching.current?.abort(), []);

  const active = run.status !== "idle" && !isTerminal(run.status);

  const start = async (form: Form) => {
    watching.current?.abort();
    const controller = new AbortController();
    watching.current = controller;
    setFailure(null);
    dispatch({ type: "reset", kind: form.kind });
    try {
      const started = await startResearch(form, controller.signal);
      if ("result" in started) return dispatch({ type: "complete", result: started.result });
      dispatch({ type: "started", taskId: started.taskId });
      await followStream(started.taskId, controller.signal, dispatch);
    } catch (error) {
      if (controller.signal.aborted) return;
      setFailure({ error, what: "Research" });
      dispatch({ type: "error", error: null });
    }
  };

  const cancel = async () => {
    if (!run.taskId) return;
    setCancelling(true);
    try {
      await cancelResearch(run.taskId);
      watching.current?.abort();
      dispatch({ type: "cancelled" });
    } catch (error) {
      setFailure({ error, what: "Cancelling" });
    } finally {
      setCancelling(false);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      <ResearchForm providers={providers} busy={active} onStart={(form) => void start(form)} />

      <div className="flex flex-wrap items-center gap-3">
        <p role="status" aria-live="polite" data-testid="research-status" className="font-medium">
          {describeRun(run)}
        </p>
        {run.taskId && <span className="text-sm text-slate-600 dark:text-slate-400">Task {run.taskId}</span>}
        {active && (
          <button type="button" className={button} disabled={!run.taskId || cancelling} onClick={() => void cancel()}>
            {cancelling ? "Cancelling…" : "Cancel"}
          </button>
        )}
      </div>
      {failure && <ErrorState error={failure.error} what={failure.what} />}

      {run.subtasks.length > 0 && (
        <section aria-labelledby="subtasks-heading">
          <h2 id="subtasks-heading" className="text-xl font-semibold">
            Subtasks
          </h2>
          <ol className="mt-2 list-decimal pl-6 text-sm" data-testid="research-subtasks">
            {run.subtasks.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
        </section>
      )}

      {run.agents.length > 0 && (
        <section aria-labelledby="agents-tree-heading" className="flex flex-col gap-2">
          <h2 id="agents-tree-heading" className="text-xl font-semibold">
            Agents
          </h2>
          <ResearchGraph agents={run.agents} />
          <details className="text-sm">
            <summary className="cursor-pointer">Agents as a list</summary>
            <ul className="mt-2 list-disc pl-5" data-testid="research-agent-list">
              {run.agents.map((a) => (
                <li key={a.id}>
                  {a.id} ({a.role}): {stateWord(a.state)}
                  {a.error && ` (${a.error})`}
                </li>
              ))}
            </ul>
          </details>
        </section>
      )}

      {run.result && <ResearchResultView result={run.result} />}
    </div>
  );
}
