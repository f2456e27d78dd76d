import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/console/api.ts";
import { closingEventOf, followStream, requestBody, startResearch, type ResearchForm } from "./research-api";
import type { RunEvent } from "./research-tree";

const form: ResearchForm = {
  kind: "dream-cascade",
  text: "  Why do tides happen? ",
  title: "",
  agents: 3,
  budget: "cheap",
  provider: "xai",
};

const sse = (...messages: object[]) =>
  new Response(messages.map((m) => `data: ${JSON.stringify(m)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });

/** Answers fetch from a script of responses, recording what was asked (the path, as the page asked it). */
function fakeFetch(...responses: Response[]) {
  const calls: { url: string; method: string; body?: string }[] = [];
  // The consoles call their page's origin.
  vi.stubGlobal("location", new URL("https://portal.test/console/research"));
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      const url = new URL(request.url);
      expect(url.origin).toBe("https://portal.test");
      const body = request.body ? await request.text() : undefined;
      calls.push({ url: url.pathname + url.search, method: request.method, body });
      const next = responses.shift();
      if (!next) throw new Error(`unexpected fetch ${request.url}`);
      return next;
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("research requests", () => {
  it("sends the cascade's and the swarm's own fields", () => {
    expect(requestBody(form)).toEqual({
      task: "Why do tides happen?",
      num_agents: 3,
      budget_tier: "cheap",
      provider_name: "xai",
    });
    expect(requestBody({ ...form, title: " Tides " })).toMatchObject({ title: "Tides" });
    expect(requestBody({ ...form, kind: "dream-swarm", text: "tides", title: "ignored" })).toEqual({
      query: "tides",
      num_agents: 3,
      budget_tier: "cheap",
      provider_name: "xai",
    });
  });

  it("starts async and returns the task id, or the result a synchronous answer carried", async () => {
    const calls = fakeFetch(
      Response.json({ task_id: "research_0123456789ab", status: "pending" }, { status: 202 }),
      Response.json({ kind: "dream-swarm", answer: "x" }),
    );
    const signal = new AbortController().signal;
    await expect(startResearch(form, signal)).resolves.toEqual({ taskId: "research_0123456789ab" });
    await expect(startResearch({ ...form, kind: "dream-swarm" }, signal)).resolves.toEqual({
      result: { kind: "dream-swarm", answer: "x" },
    });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      "POST /v1/orchestrate/dream-cascade?async=true",
      "POST /v1/orchestrate/dream-swarm?async=true",
    ]);
    expect(JSON.parse(calls[0]!.body!)).toEqual(requestBody(form));
  });

  it("turns a 429 into the error the consoles show with its retry time", async () => {
    fakeFetch(
      Response.json(
        { error: { code: "too_many_tasks", message: "3 tasks running", retry_after: 12 } },
        { status: 429 },
      ),
    );
    const error = await startResearch(form, new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect([(error as ApiError).kind, (error as ApiError).retryAfter]).toEqual(["rate-limited", 12]);
  });
});

describe("following the stream", () => {
  const id = "research_0123456789ab";

  it("feeds events until the closing one", async () => {
    const calls = fakeFetch(
      sse(
        { task_id: id, status: "running", type: "subtasks_ready", subtasks: ["a"] },
        { task_id: id, status: "cancelled", type: "cancelled", error: "Cancelled" },
        { task_id: id, status: "running", type: "status" },
      ),
    );
    const events: RunEvent[] = [];
    await followStream(id, new AbortController().signal, (e) => events.push(e));
    expect(events.map((e) => e.type)).toEqual(["status", "subtasks_ready", "status", "cancelled"]);
    expect(calls.map((c) => c.url)).toEqual([`/v1/orchestrate/${id}/stream`]);
  });

  it("checks the status when the stream closes early, and reopens it while the task runs", async () => {
    const calls = fakeFetch(
      sse({ task_id: id, status: "running", type: "status" }),
      Response.json({ task_id: id, status: "running" }),
      sse({ task_id: id, status: "running", type: "status" }),
      Response.json({ task_id: id, status: "completed", result: { answer: "x" } }),
    );
    const events: RunEvent[] = [];
    await followStream(id, new AbortController().signal, (e) => events.push(e));
    expect(events.at(-1)).toEqual({ type: "complete", result: { answer: "x" } });
    expect(calls.map((c) => c.url)).toEqual([
      `/v1/orchestrate/${id}/stream`,
      `/v1/orchestrate/${id}/status`,
      `/v1/orchestrate/${id}/stream`,
      `/v1/orchestrate/${id}/status`,
    ]);
  });

  it("gives up on a stream that keeps closing", async () => {
    const again = () => [sse(), Response.json({ status: "running" })];
    fakeFetch(...again(), ...again(), ...again(), ...again());
    await expect(followStream(id, new AbortController().signal, () => {})).rejects.toThrow(
      "the progress stream kept closing while the task was running",
    );
  });

  it("maps a finished status to the stream's closing event", () => {
    expect(closingEventOf({ status: "failed", error: "x" })).toEqual({ type: "error", error: "x" });
    expect(closingEventOf({ status: "cancelled" })).toEqual({ type: "cancelled" });
    expect(closingEventOf({ status: "budget_exceeded", error: "monthly budget exceeded" })).toEqual({
      type: "budget_exceeded",
      error: "monthly budget exceeded",
    });
    expect(closingEventOf({ status: "pending" })).toBeNull();
  });
});
