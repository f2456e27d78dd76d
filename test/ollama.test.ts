import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rotateKey } from "../lib/gateway/keys/key-rotation.ts";
import {
  LEAKY_ERROR,
  REFUSED_MODEL,
  startFakeOllama,
  startHostileRunner,
  type FakeOllama,
  type HostileRunner,
} from "./fakes/ollama.ts";
import { startTestGateway } from "./support/gateway.ts";
import { jailNetwork, type NetworkJail } from "./support/network-jail.ts";
import { useGateway } from "./support/use-gateway.ts";

describe("/v1/llm/ollama: the local model runner", () => {
  let runner: FakeOllama;
  let lanBox: FakeOllama;
  const t = useGateway({
    fakes: async () => [(runner = await startFakeOllama()), (lanBox = await startFakeOllama(["qwen2.5:7b"]))],
    env: () => ({ UPSTREAM_OLLAMA_URL: runner.url }),
  });
  const call = (path: string, init: RequestInit = {}) =>
    t.gw.request(path, {
      ...init,
      headers: { "content-type": "application/json", "X-API-Key": t.key, ...(init.headers as Record<string, string>) },
    });

  it("lists hosts with live status, the operator's first", async () => {
    const body = await (await call("/v1/llm/ollama/hosts")).json();
    expect(body.hosts).toEqual([{ url: runner.url, name: "default", default: true, status: "online" }]);
  });

  it("offers on /v1/llm/models only the models the runner has installed, its default first among equals", async () => {
    const body = await (await call("/v1/llm/models?provider=ollama")).json();
    expect(body.models).toEqual([
      { id: "llama3.2", provider: "ollama", tiers: ["balanced"], default: true },
      { id: "nomic-embed-text", provider: "ollama", tiers: [], default: false },
    ]);
  });

  it("lists installed and running models, embeds, and chats through provider ollama", async () => {
    const models = await (await call("/v1/llm/ollama/models")).json();
    expect(models.models.map((m: { name: string }) => m.name)).toEqual(["llama3.2:latest", "nomic-embed-text:latest"]);
    expect(models.models[0]).toMatchObject({ family: "llama", parameter_size: "3.2B", quantization: "Q4_K_M" });
    const running = await (await call("/v1/llm/ollama/running")).json();
    expect(running.models[0]).toMatchObject({ name: "llama3.2:latest", size_vram: 5_137_025_024 });
    const embedded = await (
      await call("/v1/llm/ollama/embed", { method: "POST", body: JSON.stringify({ text: "hello" }) })
    ).json();
    expect(embedded).toMatchObject({ model: "nomic-embed-text", embedding: expect.any(Array) });
    const chat = await (
      await call("/v1/llm/chat", {
        method: "POST",
        body: JSON.stringify({ provider: "ollama", messages: [{ role: "user", content: "hi" }] }),
      })
    ).json();
    expect(chat).toMatchObject({ content: "Local hello.", provider: "ollama", model: "llama3.2" });
  });

  it("keeps the operator's runner read-only to ordinary keys: pull and delete are 403 and change nothing", async () => {
    const pull = await call("/v1/llm/ollama/models/pull", { method: "POST", body: JSON.stringify({ model: "phi3" }) });
    expect(pull.status).toBe(403);
    expect((await pull.json()).error).toMatch(/read-only.*'ollama:admin'/);
    const del = await call("/v1/llm/ollama/models/llama3.2", { method: "DELETE" });
    expect(del.status).toBe(403);
    expect(runner.installed).toEqual(new Set(["llama3.2:latest", "nomic-embed-text:latest"]));
    expect(runner.calls.filter((c) => c.includes("/api/pull") || c.includes("/api/delete"))).toEqual([]);
  });

  it("pulls with streamed progress, then deletes, and 404s a model that is not there (operator scope)", async () => {
    const admin = await t.gw.key({ scopes: ["ollama:admin"] });
    const call = (path: string, init: RequestInit = {}) =>
      t.gw.request(path, { ...init, headers: { "content-type": "application/json", "X-API-Key": admin.key } });
    // An operator scope is not an area: the key still reaches every area.
    expect((await call("/v1/llm/ollama/models")).status).toBe(200);
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
    const refused = await call("/v1/llm/ollama/hosts", {
      method: "POST",
      body: JSON.stringify({ url: "http://10.0.0.5:11434" }),
    });
    expect(refused.status).toBe(403);
    expect(
      (await call("/v1/llm/ollama/hosts", { method: "POST", body: JSON.stringify({ url: "ftp://x" }) })).status,
    ).toBe(400);
    expect((await call(`/v1/llm/ollama/models?host=${encodeURIComponent(lanBox.url)}`)).status).toBe(403);

    const open = await startTestGateway({ env: { OLLAMA_ALLOW_PRIVATE_HOSTS: "true" } });
    try {
      const { key: k } = await open.key();
      const headers = { "content-type": "application/json", "X-API-Key": k };
      const added = await open.request("/v1/llm/ollama/hosts", {
        method: "POST",
        headers,
        body: JSON.stringify({ url: `${lanBox.url}/`, name: "lan gpu" }),
      });
      expect(added.status).toBe(201);
      expect(await added.json()).toEqual({ url: lanBox.url, name: "lan gpu", default: false, status: "online" });
      const listed = await (await open.request("/v1/llm/ollama/hosts", { headers })).json();
      expect(listed.hosts.map((h: { url: string }) => h.url)).toEqual([runner.url, lanBox.url]);
      const models = await (
        await open.request(`/v1/llm/ollama/models?host=${encodeURIComponent(lanBox.url)}`, { headers })
      ).json();
      expect(models).toMatchObject({ host: lanBox.url, models: [{ name: "qwen2.5:7b" }] });
      const other = await open.key();
      const theirs = await (await open.request("/v1/llm/ollama/hosts", { headers: { "X-API-Key": other.key } })).json();
      expect(theirs.hosts).toHaveLength(1);
    } finally {
      await open.close();
    }
  });

  it("lets a key pull and delete only on hosts it registered, and keeps a host's error bodies out of answers", async () => {
    const open = await startTestGateway({ env: { OLLAMA_ALLOW_PRIVATE_HOSTS: "true" } });
    try {
      const a = await open.key();
      const b = await open.key();
      const as = (k: string) => ({ "content-type": "application/json", "X-API-Key": k });
      const onLan = (path: string) => `${path}?host=${encodeURIComponent(lanBox.url)}`;
      expect(
        (
          await open.request("/v1/llm/ollama/hosts", {
            method: "POST",
            headers: as(a.key),
            body: JSON.stringify({ url: lanBox.url }),
          })
        ).status,
      ).toBe(201);
      const before = lanBox.calls.length;

      const stolenDelete = await open.request(onLan("/v1/llm/ollama/models/qwen2.5:7b"), {
        method: "DELETE",
        headers: as(b.key),
      });
      expect(stolenDelete.status).toBe(403);
      expect((await stolenDelete.json()).error).toMatch(/not registered for this key/);
      const stolenPull = await open.request(onLan("/v1/llm/ollama/models/pull"), {
        method: "POST",
        headers: as(b.key),
        body: JSON.stringify({ model: "phi3" }),
      });
      expect(stolenPull.status).toBe(403);
      expect(lanBox.calls.slice(before)).toEqual([]);
      expect(lanBox.installed.has("qwen2.5:7b")).toBe(true);

      const refused = await open.request(onLan("/v1/llm/ollama/models/pull"), {
        method: "POST",
        headers: as(a.key),
        body: JSON.stringify({ model: REFUSED_MODEL }),
      });
      expect(refused.status).toBe(400);
      const text = await refused.text();
      expect(text).not.toContain("hunter2");
      expect(text).not.toContain(LEAKY_ERROR);
      expect(JSON.parse(text).error).toMatch(/refused the request \(400\)/);

      const own = await open.request(onLan("/v1/llm/ollama/models/qwen2.5:7b"), {
        method: "DELETE",
        headers: as(a.key),
      });
      expect(await own.json()).toEqual({ deleted: "qwen2.5:7b" });
      expect(lanBox.installed.has("qwen2.5:7b")).toBe(false);
    } finally {
      await open.close();
    }
  });

  it("keeps the operator's runner read-only when a key registers it under another name", async () => {
    const open = await startTestGateway({
      env: { OLLAMA_ALLOW_PRIVATE_HOSTS: "true", UPSTREAM_OLLAMA_URL: runner.url },
    });
    try {
      const { key: k } = await open.key();
      const headers = { "content-type": "application/json", "X-API-Key": k };
      const port = new URL(runner.url).port;
      runner.installed.add("llama3.2:latest");
      for (const alias of [
        `http://localhost:${port}`,
        `http://[::ffff:127.0.0.1]:${port}`,
        `http://127.0.0.2:${port}`,
      ]) {
        const added = await open.request("/v1/llm/ollama/hosts", {
          method: "POST",
          headers,
          body: JSON.stringify({ url: alias }),
        });
        expect(added.status).toBe(201);
        const host = (await added.json()).url as string;
        const before = runner.calls.length;
        const on = (path: string) => `${path}?host=${encodeURIComponent(host)}`;
        const del = await open.request(on("/v1/llm/ollama/models/llama3.2:latest"), { method: "DELETE", headers });
        expect(del.status).toBe(403);
        expect((await del.json()).error).toMatch(/read-only/);
        const pull = await open.request(on("/v1/llm/ollama/models/pull"), {
          method: "POST",
          headers,
          body: JSON.stringify({ model: "phi3" }),
        });
        expect(pull.status).toBe(403);
        expect(runner.calls.slice(before)).toEqual([]);
      }
      expect(runner.installed.has("llama3.2:latest")).toBe(true);
    } finally {
      await open.close();
    }
  });

  it("holds the key's concurrency slot while a pull streams, and frees it when the pull ends", async () => {
    const admin = await t.gw.key({ scopes: ["ollama:admin"], concurrency: 1 });
    const headers = { "content-type": "application/json", "X-API-Key": admin.key };
    let release!: () => void;
    runner.pullGate = new Promise((r) => (release = r));
    try {
      const res = await t.gw.request("/v1/llm/ollama/models/pull", {
        method: "POST",
        headers,
        body: JSON.stringify({ model: "gemma2" }),
      });
      const reader = res.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain("pulling manifest");
      const busy = await t.gw.request("/v1/llm/ollama/models", { headers });
      expect(busy.status).toBe(429);
      expect((await busy.json()).error).toMatchObject({ code: "rate_limit_exceeded" });
      release();
      while (!(await reader.read()).done);
    } finally {
      release();
      runner.pullGate = undefined;
    }
    await new Promise((r) => setTimeout(r, 20));
    expect((await t.gw.request("/v1/llm/ollama/models", { headers })).status).toBe(200);
  });
});

describe("/v1/llm/ollama: a registered host is pinned to the address it was checked at (DNS rebinding)", () => {
  let inside: FakeOllama;
  let lookups = 0;
  let jail: NetworkJail | undefined;
  const t = useGateway({ fakes: async () => [(inside = await startFakeOllama(["secret-model:latest"]))] });
  beforeAll(() => {
    jail = jailNetwork();
    // The check sees a public address; any later lookup would point at the private runner inside.
    t.gw.rt.resolveHost = async (host) => {
      if (host !== "rebind.test") throw new Error("NXDOMAIN");
      lookups += 1;
      return [{ address: lookups === 1 ? "8.8.8.8" : "127.0.0.1", family: 4 }];
    };
  });
  afterAll(() => {
    jail?.release();
  });
  const headers = () => ({ "content-type": "application/json", "X-API-Key": t.key });
  const url = () => `http://rebind.test:${inside.port}`;

  it("connects every call, status checks included, to the checked address and never to a second answer", async () => {
    lookups = 0;
    const added = await t.gw.request("/v1/llm/ollama/hosts", {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ url: url() }),
    });
    expect(added.status).toBe(201);
    for (const path of ["/v1/llm/ollama/models", "/v1/llm/ollama/running"]) {
      lookups = 0;
      jail!.dialled.length = 0;
      const res = await t.gw.request(`${path}?host=${encodeURIComponent(url())}`, { headers: headers() });
      expect(res.status).toBe(502);
      expect(lookups).toBe(1);
      expect(jail!.dialled).toEqual(["8.8.8.8"]);
    }
    lookups = 0;
    jail!.dialled.length = 0;
    const listed = await (await t.gw.request("/v1/llm/ollama/hosts", { headers: headers() })).json();
    expect(listed.hosts.find((h: { url: string }) => h.url === url())).toMatchObject({ status: "offline" });
    expect(lookups).toBe(1);
    expect(jail!.dialled).toEqual(["8.8.8.8"]);
    expect(inside.calls).toEqual([]);
  });
});

describe("/v1/llm/ollama: registered hosts are capped per key, probed briefly and read only so far", () => {
  let runner: FakeOllama;
  let hostile: HostileRunner;
  const t = useGateway({
    fakes: async () => [(runner = await startFakeOllama()), (hostile = await startHostileRunner())],
    env: () => ({ UPSTREAM_OLLAMA_URL: runner.url }),
    config: { OLLAMA_ALLOW_PRIVATE_HOSTS: "true", OLLAMA_HOSTS_PER_KEY: "3" },
  });
  const headers = (key: string) => ({ "content-type": "application/json", "X-API-Key": key });
  const add = (key: string, url: string) =>
    t.gw.request("/v1/llm/ollama/hosts", { method: "POST", headers: headers(key), body: JSON.stringify({ url }) });

  it("refuses one host past OLLAMA_HOSTS_PER_KEY with 409 naming the cap, and a rotation brings no fresh room", async () => {
    const k = await t.gw.key();
    const at = (ip: string) => `http://${ip}:${runner.port}`;
    for (const ip of ["127.0.0.1", "127.0.0.2", "127.0.0.3"]) expect((await add(k.key, at(ip))).status).toBe(201);
    const refused = await add(k.key, at("127.0.0.4"));
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toMatch(
      /registered 3 runner hosts, the most allowed \(3, OLLAMA_HOSTS_PER_KEY\)/,
    );
    // Registering a host it has again (to rename it) is not one more.
    expect((await add(k.key, at("127.0.0.2"))).status).toBe(201);

    const rotated = (await rotateKey(t.gw.rt.db, k.id, { graceHours: 1 }, "test"))!;
    expect((await add(rotated.key, at("127.0.0.4"))).status).toBe(409);
    const listed = await (await t.gw.request("/v1/llm/ollama/hosts", { headers: headers(rotated.key) })).json();
    expect(listed.hosts.map((h: { url: string }) => h.url)).toEqual([
      runner.url,
      at("127.0.0.1"),
      at("127.0.0.2"),
      at("127.0.0.3"),
    ]);
    expect(await t.gw.rt.db.prisma.ollamaHost.count({ where: { url: at("127.0.0.4") } })).toBe(0);
  });

  it("frees a place under the cap when a key removes its own host, and never removes another key's", async () => {
    const a = await t.gw.key();
    const b = await t.gw.key();
    const at = (ip: string) => `http://${ip}:${runner.port}`;
    const remove = (key: string, url: string) =>
      t.gw.request(`/v1/llm/ollama/hosts?url=${encodeURIComponent(url)}`, { method: "DELETE", headers: headers(key) });
    const listed = async (key: string) =>
      (await (await t.gw.request("/v1/llm/ollama/hosts", { headers: headers(key) })).json()).hosts.map(
        (h: { url: string }) => h.url,
      );
    for (const ip of ["127.0.0.1", "127.0.0.2", "127.0.0.3"]) expect((await add(a.key, at(ip))).status).toBe(201);
    expect((await add(a.key, at("127.0.0.4"))).status).toBe(409);

    // Another key naming A's host is answered as if nobody had registered it, and A keeps it.
    const stolen = await remove(b.key, at("127.0.0.2"));
    expect(stolen.status).toBe(404);
    expect((await stolen.json()).error).toBe(`host ${at("127.0.0.2")} is not registered for this key`);
    expect(await listed(a.key)).toContain(at("127.0.0.2"));

    // The URL is read as POST reads it: a trailing slash names the same host.
    const removed = await remove(a.key, `${at("127.0.0.2")}/`);
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe("");
    expect((await add(a.key, at("127.0.0.4"))).status).toBe(201);
    expect(await listed(a.key)).toEqual([runner.url, at("127.0.0.1"), at("127.0.0.3"), at("127.0.0.4")]);

    expect((await remove(a.key, at("127.0.0.2"))).status).toBe(404);
    expect((await remove(a.key, at("127.0.0.9"))).status).toBe(404);
    expect((await remove(a.key, "ftp://x")).status).toBe(400);
    expect((await t.gw.request("/v1/llm/ollama/hosts", { method: "DELETE", headers: headers(a.key) })).status).toBe(
      400,
    );
  });

  it("cuts a host's endless model list off at 1 MB with a 502, and its silent status probe reads offline", async () => {
    const k = await t.gw.key();
    const added = await add(k.key, hostile.url);
    expect(added.status).toBe(201);
    expect((await added.json()).status).toBe("offline");
    const res = await t.gw.request(`/v1/llm/ollama/models?host=${encodeURIComponent(hostile.url)}`, {
      headers: headers(k.key),
    });
    expect(res.status).toBe(502);
    expect((await res.json()).error).toBe("ollama sent a response larger than 1048576 bytes");
    // The gateway hung up near the cap (socket buffers aside), not after buffering tens of megabytes.
    expect(hostile.sent).toBeLessThan(16 * 1024 * 1024);
  });

  it("answers within the status timeout when a host's name lookup or its status never comes", async () => {
    const k = await t.gw.key();
    const stuck = `http://stuck.test:${runner.port}`;
    let lookups = 0;
    const previous = t.gw.rt.resolveHost;
    // The check at registration gets an answer; every later lookup of the name (the status probes) hangs.
    t.gw.rt.resolveHost = async (host) => {
      if (host === "localhost") return [{ address: "127.0.0.1", family: 4 }];
      if (host !== "stuck.test") throw new Error("NXDOMAIN");
      lookups += 1;
      return lookups === 1 ? [{ address: "127.0.0.1", family: 4 }] : new Promise(() => {});
    };
    try {
      const started = Date.now();
      const added = await add(k.key, stuck);
      expect(added.status).toBe(201);
      expect((await added.json()).status).toBe("offline");
      expect((await add(k.key, hostile.url)).status).toBe(201);
      expect((await add(k.key, `http://localhost:${runner.port}`)).status).toBe(201);
      const listed = await (await t.gw.request("/v1/llm/ollama/hosts", { headers: headers(k.key) })).json();
      expect(listed.hosts.map((h: { status: string }) => h.status)).toEqual(["online", "offline", "offline", "online"]);
      // Three answers each held at most the 3 s timeout: far from a hang, with room for a slow machine.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      t.gw.rt.resolveHost = previous;
    }
  });
});
