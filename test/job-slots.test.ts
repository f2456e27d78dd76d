import { describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { useGateway } from "./support/use-gateway.ts";

/**
 * The attack: one key fills every job slot (JOBS_CONCURRENCY) with its batches and research tasks for as
 * long as they run, and every other key's job waits behind them. JOBS_RUNNING_PER_KEY caps what one key
 * runs at once, so another key's job takes a free slot while the first key's extra jobs wait, each
 * status saying where it stands in the queue.
 */
describe("fair job slots: JOBS_RUNNING_PER_KEY", () => {
  let xai: FakeLlm;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const t = useGateway({
    // Every model call waits until the test lets go, so each job keeps its slot until then.
    fakes: async () => [(xai = await startFakeOpenAICompatible({ key: "k", reply: "Done.", hold: () => held }))],
    env: () => ({ XAI_API_KEY: "k", UPSTREAM_XAI_URL: xai.url, MISTRAL_API_KEY: undefined }),
    config: { JOBS_CONCURRENCY: "3", JOBS_RUNNING_PER_KEY: "2" },
    key: { minute: 1000 },
  });
  const call = (path: string, apiKey: string, init: RequestInit = {}) =>
    t.gw.request(path, { ...init, headers: { "content-type": "application/json", "X-API-Key": apiKey } });
  const batch = async (apiKey: string) => {
    const res = await call("/v1/llm/batch", apiKey, {
      method: "POST",
      body: JSON.stringify({ requests: [{ custom_id: "q", messages: [{ role: "user", content: "question" }] }] }),
    });
    expect(res.status).toBe(201);
    return (await res.json()).id as string;
  };
  const batchStatus = async (id: string, apiKey: string) => (await call(`/v1/llm/batch/${id}`, apiKey)).json();
  const until = (id: string, apiKey: string, status: string) =>
    expect.poll(async () => (await batchStatus(id, apiKey)).status, { timeout: 30_000, interval: 50 }).toBe(status);

  it("starts another key's job before the first key's jobs past its cap, and shows those their place", async () => {
    const other = (await t.gw.key({ name: "second key" })).key;
    try {
      const running = [await batch(t.key), await batch(t.key)];
      for (const id of running) await until(id, t.key, "in_progress");
      // Two more of the first key's: a slot is free, but the key runs its two already.
      const waiting = [await batch(t.key), await batch(t.key)];
      const theirs = await batch(other);
      await until(theirs, other, "in_progress");

      const [third, fourth] = await Promise.all(waiting.map((id) => batchStatus(id, t.key)));
      expect(third).toMatchObject({ status: "queued", queue_position: 1 });
      expect(fourth).toMatchObject({ status: "queued", queue_position: 2 });
      const listed = (await (await call("/v1/llm/batch", t.key)).json()).batches as Array<Record<string, unknown>>;
      expect(listed.find((b) => b.id === waiting[1])).toMatchObject({ queue_position: 2 });
      expect(listed.find((b) => b.id === running[0])).not.toHaveProperty("queue_position");

      // A research task of the same key waits its turn too, and its status says where it stands.
      const research = await call("/v1/orchestrate/dream-swarm?async=true", t.key, {
        method: "POST",
        body: JSON.stringify({ query: "waiting", num_agents: 1 }),
      });
      expect(research.status).toBe(202);
      const { task_id } = await research.json();
      const status = await (await call(`/v1/orchestrate/${task_id}/status`, t.key)).json();
      expect(status).toMatchObject({ status: "pending", queue_position: 3 });
      expect((await call(`/v1/orchestrate/${task_id}`, t.key, { method: "DELETE" })).status).toBe(200);
    } finally {
      release();
    }
    await t.gw.rt.runner.drained();
  });
});
