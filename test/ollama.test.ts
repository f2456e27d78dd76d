import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { startFakeOllama, type FakeOllama } from "./fakes/ollama.ts";
import { startTestGateway } from "./support/gateway.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/llm/ollama: the local model runner", () => {
  let runner: FakeOllama;
  let lanBox: FakeOllama;
  const t = useGateway({
    fakes: async () => [(runner = await startFakeOllama()), (lanBox = await startFakeOllama(["qwen2.5:7b"]))],
    env: () => ({ UPSTREAM_OLLAMA_URL: runner.url }),
  });
  const call = (path: string, init: RequestInit = {}) =>
    t.gw.request(path, { ...init, headers: { "content-type": "application/json", "X-API-Key": t.key, ...(init.headers as Record<string, string>) } });

  it("lists hosts with live status, the operator's first", async () => {
    const body = await (await call("/v1/llm/ollama/hosts")).json();
    expect(body.hosts).toEqual([{ url: runner.url, name: "default", default: true, status: "online" }]);
  });

  it("lists installed and running models, embeds, and chats through provider ollama", async () => {
    const models = await (await call("/v1/llm/ollama/models")).json();
    expect(models.models.map((m: { name: string }) => m.name)).toEqual(["llama3.2:latest", "nomic-embed-text:latest"]);
    expect(models.models[0]).toMatchObject({ family: "llama", parameter_size: "3.2B", quantization: "Q4_K_M" });
    const running = await (await call("/v1/llm/ollama/running")).json();
    expect(running.models[0]).toMatchObject({ name: "llama3.2:latest", size_vram: 5_137_025_024 });
    const embedded = await (await call("/v1/llm/ollama/embed", { method: "POST", body: JSON.stringify({ text: "hello" }) })).json();
    expect(embedded).toMatchObject({ model: "nomic-embed-text", embedding: expect.any(Array) });
    const chat = await (await call("/v1/llm/chat", { method: "POST", body: JSON.stringify({ provider: "ollama", messages: [{ role: "user", content: "hi" }] }) })).json();
    expect(chat).toMatchObject({ content: "Local hello.", provider: "ollama", model: "llama3.2" });
  });

  it("pulls with streamed progress, then deletes, and 404s a model that is not there", async () => {
    const res = await call("/v1/llm/ollama/models/pull", { method: "POST", body: JSON.stringify({ model: "phi3" }) });
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events: Array<Record<string, unknown>> = [];
    const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
    parser.feed(await res.text());
    expect(events.find((e) => e.percent === 40)).toBeTruthy();
    expect(events.at(-1)).toEqual({ done: true, success: true, model: "phi3" });
    expect(runner.installed.has("phi3:latest")).toBe(true);

    const del = await call("/v1/llm/ollama/models/phi3", { method: "DELETE" });
    expect(await del.json()).toEqual({ deleted: "phi3" });
    expect(runner.installed.has("phi3:latest")).toBe(false);
    expect((await call("/v1/llm/ollama/models/phi3", { method: "DELETE" })).status).toBe(404);
  });

  it("refuses private hosts unless the operator allows them, and keeps hosts per key", async () => {
    const refused = await call("/v1/llm/ollama/hosts", { method: "POST", body: JSON.stringify({ url: "http://10.0.0.5:11434" }) });
    expect(refused.status).toBe(403);
    expect((await call("/v1/llm/ollama/hosts", { method: "POST", body: JSON.stringify({ url: "ftp://x" }) })).status).toBe(400);
    expect((await call(`/v1/llm/ollama/models?host=${encodeURIComponent(lanBox.url)}`)).status).toBe(404);

    const open = await startTestGateway({ env: { OLLAMA_ALLOW_PRIVATE_HOSTS: "true" } });
    try {
      const { key: k } = await open.key();
      const headers = { "content-type": "application/json", "X-API-Key": k };
      const added = await open.request("/v1/llm/ollama/hosts", { method: "POST", headers, body: JSON.stringify({ url: `${lanBox.url}/`, name: "lan gpu" }) });
      expect(added.status).toBe(201);
      expect(await added.json()).toEqual({ url: lanBox.url, name: "lan gpu", default: false, status: "online" });
      const listed = await (await open.request("/v1/llm/ollama/hosts", { headers })).json();
      expect(listed.hosts.map((h: { url: string }) => h.url)).toEqual([runner.url, lanBox.url]);
      const models = await (await open.request(`/v1/llm/ollama/models?host=${encodeURIComponent(lanBox.url)}`, { headers })).json();
      expect(models).toMatchObject({ host: lanBox.url, models: [{ name: "qwen2.5:7b" }] });
      const other = await open.key();
      const theirs = await (await open.request("/v1/llm/ollama/hosts", { headers: { "X-API-Key": other.key } })).json();
      expect(theirs.hosts).toHaveLength(1);
    } finally {
      await open.close();
    }
  });
});
