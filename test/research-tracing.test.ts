import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeArxiv, startFakeSemanticScholar, startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { startFakeResearchLlm, type FakeResearchLlm } from "./fakes/research-llm.ts";
import { databaseBackends, tempDir } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";
import { childrenOf, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.ts";
import { startWorkerProcess, type ServerProcess } from "./support/server-process.ts";
import { useGateway } from "./support/use-gateway.ts";

const sharedBackends = Boolean(process.env.REDIS_URL) && databaseBackends.includes("postgres");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const PROVIDER_KEY = "xai-trace-provider-secret";
const RUN = randomBytes(4).toString("hex");
const TASK = "How did the lighthouse keeper's marmalade reach the colonies?";
const SPAN_KIND = { INTERNAL: 1, SERVER: 2, CLIENT: 3, CONSUMER: 5 };

/**
 * A research task queued by a web gateway (JOB_WORKERS=separate) and run by `npm run worker` in its own
 * process, both exporting to one OTLP collector: the request that started it and everything the
 * worker did for it arrive as one trace.
 */
describe.runIf(sharedBackends)("a research task run by a worker process is one trace with its request", () => {
  let receiver: OtlpReceiver;
  let llm: FakeResearchLlm;
  let wiki: FakeSource;
  let gw: TestGateway;
  let worker: ServerProcess;
  let key: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    [receiver, llm, wiki] = await Promise.all([
      startOtlpReceiver(),
      // Each worker searches for its own subtask, this run's own, so each search reaches the source: none
      // is coalesced, nor answered from the upstream cache (Redis, shared with earlier runs).
      startFakeResearchLlm({
        key: PROVIDER_KEY,
        script: (req) =>
          req.role === "worker" && !req.toolResults.length
            ? {
                toolCalls: [
                  {
                    name: "wikipedia_search",
                    arguments: { query: `engine part ${/Subtask (\d+)/.exec(req.prompt)?.[1]} ${RUN}`, limit: 2 },
                  },
                ],
              }
            : undefined,
      }),
      startFakeWikipedia(),
    ]);
    const providers = { XAI_API_KEY: PROVIDER_KEY, UPSTREAM_XAI_URL: llm.url, UPSTREAM_WIKIPEDIA_URL: wiki.url };
    // The web gateway checks the provider is configured before it queues the task.
    Object.assign(process.env, providers);
    const queue = `test-trace-${randomBytes(4).toString("hex")}`;
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "50" };
    gw = await startTestGateway({
      db: "postgres",
      limits: "redis",
      env: {
        ...tracing,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_SERVICE_NAME: "gateway-web",
        JOB_WORKERS: "separate",
        JOB_QUEUE: queue,
      },
    });
    ({ key } = await gw.key({ minute: 1000, concurrency: 20 }));
    worker = await startWorkerProcess({
      ...providers,
      ...tracing,
      // The other encoding: the collector gets the one trace over both.
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "gateway-worker",
      DATABASE_URL: gw.env.DATABASE_URL!,
      REDIS_URL: process.env.REDIS_URL!,
      JOB_QUEUE: queue,
      DATA_DIR: tempDir(),
    });
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    await gw?.close();
    await Promise.all([receiver?.close(), llm?.close(), wiki?.close()]);
    process.env = saved;
  });

  async function finished(taskId: string) {
    for (let i = 0; i < 600; i++) {
      const res = await gw.request(`/v1/orchestrate/${taskId}/status`, { headers: { "X-API-Key": key } });
      const body = (await res.json()) as { status: string };
      if (!["pending", "running"].includes(body.status)) return body;
      await sleep(100);
    }
    throw new Error(`task ${taskId} did not finish`);
  }

  it("request → research.task → phases → agents → their model attempts and tool requests, no key or prompt exported", async () => {
    const res = await gw.request("/v1/orchestrate/dream-cascade?async=true", {
      method: "POST",
      headers: { "X-API-Key": key, "content-type": "application/json" },
      body: JSON.stringify({ task: TASK, num_agents: 3 }),
    });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: string };
    const done = await finished(task_id);
    expect(done.status, JSON.stringify(done).slice(0, 2000)).toBe("completed");

    const requestId = res.headers.get("x-request-id")!;
    await gw.rt.tracing!.flush();
    const all = await receiver.waitFor(
      (spans) =>
        spans.some((s) => s.attributes["gateway.request_id"] === requestId) &&
        spans.some((s) => s.name === "research.task" && s.attributes["gateway.task.id"] === task_id),
      30_000,
    );
    const server = all.find((s) => s.attributes["gateway.request_id"] === requestId)!;
    const trace = all.filter((s) => s.traceId === server.traceId);
    const under = (parent: ReceivedSpan) => childrenOf(trace, parent).sort((a, b) => Number(a.startNs - b.startNs));
    const names = (spans: ReceivedSpan[]) => spans.map((s) => s.name);
    const one = (parent: ReceivedSpan, name: string) => {
      const found = under(parent).filter((s) => s.name === name);
      expect(found, `${name} under ${parent.name}`).toHaveLength(1);
      return found[0]!;
    };

    expect(server).toMatchObject({ name: "POST /v1/orchestrate/dream-cascade", kind: SPAN_KIND.SERVER });
    expect(server.resource["service.name"]).toBe("gateway-web");
    const task = one(server, "research.task");
    expect(task.kind).toBe(SPAN_KIND.CONSUMER);
    expect(task.resource["service.name"]).toBe("gateway-worker");
    expect(task.attributes).toMatchObject({
      "gateway.task.id": task_id,
      "gateway.task.kind": "dream-cascade",
      "gateway.research.agents": 3,
    });
    expect(names(under(task))).toEqual([
      "research.breakdown",
      "research.workers",
      "research.synthesis",
      "research.summary",
    ]);
    const [breakdown, workers, synthesis, summary] = under(task);

    /** An agent's span: its one model call's attempt (a GenAI CLIENT span), with the usage that call reported. */
    const agent = (phase: ReceivedSpan, id: string, model: string) => {
      const span = one(phase, `invoke_agent ${id}`);
      const attempt = one(span, `chat ${model}`);
      expect(attempt.kind).toBe(SPAN_KIND.CLIENT);
      expect(attempt.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.system": "xai",
        "gen_ai.usage.input_tokens": expect.any(Number),
        "gen_ai.usage.output_tokens": expect.any(Number),
      });
      return { span, attempt };
    };
    const chats = [agent(breakdown!, "breakdown", "grok-4-fast").attempt];
    const searches: ReceivedSpan[] = [];
    expect(names(under(workers!)).sort()).toEqual([
      "invoke_agent worker-1",
      "invoke_agent worker-2",
      "invoke_agent worker-3",
    ]);
    for (const id of ["worker-1", "worker-2", "worker-3"]) {
      const { span, attempt } = agent(workers!, id, "grok-3-mini");
      chats.push(attempt);
      const tool = one(span, "execute_tool wikipedia_search");
      const request = one(tool, "GET wikipedia");
      expect(request).toMatchObject({ kind: SPAN_KIND.CLIENT, attributes: { "http.response.status_code": 200 } });
      searches.push(request);
    }
    chats.push(agent(synthesis!, "synth-1", "grok-4-fast").attempt);
    chats.push(agent(summary!, "summary", "grok-4").attempt);

    // Everything the worker exported is this one trace, and each upstream continued it from its own span.
    const fromWorker = receiver.spans().filter((s) => s.resource["service.name"] === "gateway-worker");
    expect(fromWorker.length).toBeGreaterThanOrEqual(1 + 4 + 6 + 6 + 6);
    expect(fromWorker.every((s) => s.traceId === server.traceId)).toBe(true);
    const parentOf = (traceparent: string | undefined) => traceparent?.split("-")[2];
    expect(llm.requests.map((r) => r.traceparent?.split("-")[1])).toEqual(llm.requests.map(() => server.traceId));
    expect(new Set(llm.requests.map((r) => parentOf(r.traceparent)))).toEqual(new Set(chats.map((s) => s.spanId)));
    expect(new Set(wiki.traceparents.map(parentOf))).toEqual(new Set(searches.map((s) => s.spanId)));

    // No key and no word of the task, its subtasks, the agents' prompts or their searches left either process.
    const bodies = receiver.bodies().join("\n");
    for (const secret of [key, PROVIDER_KEY, "marmalade", "Subtask", "Role:", "engine part"])
      expect(bodies, secret).not.toContain(secret);
  }, 120_000);
});

/** Without Redis the web process runs its tasks itself (the in-process runner): the same one trace. */
describe("a research task run in the web process is one trace with its request", () => {
  let receiver: OtlpReceiver;
  let llm: FakeResearchLlm;
  let arxiv: FakeSource;
  let scholar: FakeSource;
  // Filled in once the receiver listens, before the gateway reads it.
  const config: Record<string, string> = { OTEL_BSP_SCHEDULE_DELAY: "50" };
  const t = useGateway({
    fakes: async () => {
      [receiver, llm, arxiv, scholar] = await Promise.all([
        startOtlpReceiver(),
        startFakeResearchLlm({ key: PROVIDER_KEY }),
        startFakeArxiv(),
        startFakeSemanticScholar(),
      ]);
      config.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
      return [receiver, llm, arxiv, scholar];
    },
    env: () => ({
      XAI_API_KEY: PROVIDER_KEY,
      UPSTREAM_XAI_URL: llm.url,
      UPSTREAM_ARXIV_URL: arxiv.url,
      UPSTREAM_SEMANTIC_SCHOLAR_URL: scholar.url,
    }),
    config,
    key: { minute: 1000, concurrency: 20 },
  });

  it("a dream-swarm: its searcher's span over its search tools' requests and its model call, then the merge", async () => {
    const res = await t.post("/v1/orchestrate/dream-swarm?async=true", { query: TASK, num_agents: 1 });
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: string };
    const requestId = res.headers.get("x-request-id")!;
    const all = await receiver.waitFor(
      (spans) =>
        spans.some((s) => s.attributes["gateway.request_id"] === requestId) &&
        spans.some((s) => s.name === "research.task" && s.attributes["gateway.task.id"] === task_id),
      30_000,
    );
    const server = all.find((s) => s.attributes["gateway.request_id"] === requestId)!;
    const trace = all.filter((s) => s.traceId === server.traceId);
    const under = (parent: ReceivedSpan) => childrenOf(trace, parent).sort((a, b) => Number(a.startNs - b.startNs));
    const tree = (s: ReceivedSpan): unknown => ({
      [s.name]: under(s)
        .filter((c) => !c.name.startsWith("gateway."))
        .map(tree),
    });
    expect(tree(server)).toEqual({
      "POST /v1/orchestrate/dream-swarm": [
        {
          "research.task": [
            {
              "research.search": [
                {
                  "invoke_agent searcher-1": expect.arrayContaining([
                    { "execute_tool arxiv_search": [{ "GET arxiv": [] }] },
                    { "execute_tool semantic_scholar_search": [{ "GET semantic_scholar": [] }] },
                    { "chat grok-3-mini": [] },
                  ]),
                },
              ],
            },
            { "research.merge": [{ "invoke_agent merge": [{ "chat grok-4": [] }] }] },
          ],
        },
      ],
    });
    expect(trace.find((s) => s.name === "research.task")!.attributes).toMatchObject({
      "gateway.task.kind": "dream-swarm",
      "gateway.research.agents": 1,
    });
    expect(receiver.bodies().join("\n")).not.toContain("marmalade");
  }, 60_000);
});
