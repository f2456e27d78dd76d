import { randomUUID } from "node:crypto";
import { GatewayError } from "../../gateway/errors.ts";
import type { Runtime } from "../../gateway/runtime.ts";
import { callUpstream, upstreamFailure, upstreamJson } from "../../upstream/http.ts";
import { OLLAMA_DEFAULT_ORIGIN } from "../../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../../upstream/origin.ts";
import { checkDestination } from "../../upstream/safe-fetch.ts";

export type Host = { url: string; name: string | null; default: boolean };

export function defaultHost(): Host {
  return { url: upstreamOrigin("ollama", OLLAMA_DEFAULT_ORIGIN), name: "default", default: true };
}

export function normaliseHostUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GatewayError(400, "url is not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new GatewayError(400, "url must use http or https");
  if (url.username || url.password || url.pathname.replace(/\/+$/, "") !== "" || url.search) throw new GatewayError(400, "url must be an origin such as http://gpu-box:11434, without path or credentials");
  return url.origin;
}

/**
 * A host registered by a key is a URL from a user: unless the operator allows private runners, it
 * must resolve only to public addresses, checked when it is added and again before every call.
 */
async function checkUserHost(rt: Runtime, url: string): Promise<void> {
  if (rt.config.ollamaAllowPrivateHosts) return;
  await checkDestination(new URL(url), { maxBytes: 0, timeoutMs: 0, maxRedirects: 0, userAgent: "", resolve: rt.resolveHost });
}

export async function listHosts(rt: Runtime, keyId: string): Promise<Host[]> {
  const rows = await rt.db.prisma.ollamaHost.findMany({ where: { ownerKeyId: keyId }, orderBy: { createdAt: "asc" } });
  return [defaultHost(), ...rows.map((r) => ({ url: r.url, name: r.name, default: false }))];
}

export async function addHost(rt: Runtime, keyId: string, rawUrl: string, name?: string): Promise<Host> {
  const url = normaliseHostUrl(rawUrl);
  await checkUserHost(rt, url);
  await rt.db.prisma.ollamaHost.upsert({
    where: { ownerKeyId_url: { ownerKeyId: keyId, url } },
    create: { id: randomUUID(), ownerKeyId: keyId, url, name: name ?? null },
    update: { name: name ?? null },
  });
  return { url, name: name ?? null, default: false };
}

export async function hostStatus(url: string): Promise<"online" | "offline"> {
  try {
    const res = await fetch(`${url}/api/version`, { signal: AbortSignal.timeout(1500), redirect: "error" });
    return res.ok ? "online" : "offline";
  } catch {
    return "offline";
  }
}

/** The host a call goes to: the named one if this key may use it, else the operator's default. */
export async function resolveHost(rt: Runtime, keyId: string, requested?: string): Promise<string> {
  if (!requested) return defaultHost().url;
  const url = normaliseHostUrl(requested);
  const hosts = await listHosts(rt, keyId);
  const host = hosts.find((h) => h.url === url);
  if (!host) throw new GatewayError(404, `host ${url} is not registered for this key; add it with POST /v1/llm/ollama/hosts`);
  if (!host.default) await checkUserHost(rt, url);
  return url;
}

export type RunnerModel = { name: string; size: number | null; modified_at: string | null; family: string | null; parameter_size: string | null; quantization: string | null };

export async function installedModels(host: string): Promise<RunnerModel[]> {
  const body = await upstreamJson<{ models?: Array<{ name: string; size?: number; modified_at?: string; details?: { family?: string; parameter_size?: string; quantization_level?: string } }> }>(
    "ollama",
    `${host}/api/tags`,
    { redirect: "error" },
  );
  return (body.models ?? []).map((m) => ({
    name: m.name,
    size: m.size ?? null,
    modified_at: m.modified_at ?? null,
    family: m.details?.family ?? null,
    parameter_size: m.details?.parameter_size ?? null,
    quantization: m.details?.quantization_level ?? null,
  }));
}

export async function runningModels(host: string): Promise<Array<{ name: string; size: number | null; size_vram: number | null; expires_at: string | null }>> {
  const body = await upstreamJson<{ models?: Array<{ name: string; size?: number; size_vram?: number; expires_at?: string }> }>("ollama", `${host}/api/ps`, { redirect: "error" });
  return (body.models ?? []).map((m) => ({ name: m.name, size: m.size ?? null, size_vram: m.size_vram ?? null, expires_at: m.expires_at ?? null }));
}

export async function deleteModel(host: string, model: string): Promise<void> {
  const res = await callUpstream("ollama", `${host}/api/delete`, { method: "DELETE", headers: { "content-type": "application/json" }, body: JSON.stringify({ model }), redirect: "error" });
  if (res.status === 404) throw new GatewayError(404, `model '${model}' is not installed`);
  if (!res.ok) throw await upstreamFailure("ollama", res);
}

const MAX_PROGRESS_LINE = 64 * 1024;

/** Pulls a model, turning Ollama's NDJSON progress into server-sent events ending with {done: true}. */
export async function pullModel(host: string, model: string, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const res = await callUpstream("ollama", `${host}/api/pull`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model, stream: true }), signal, redirect: "error" }, 60 * 60_000);
  if (!res.ok || !res.body) throw await upstreamFailure("ollama", res);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let buffered = "";
  let ok = false;
  return res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffered += decoder.decode(chunk, { stream: true });
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        // A progress line is a few hundred bytes; one that never ends is not Ollama, and must not grow without bound.
        if (buffered.length > MAX_PROGRESS_LINE) throw new GatewayError(502, "ollama sent a progress line longer than 64 KiB");
        for (const line of lines) {
          if (!line.trim()) continue;
          const p = JSON.parse(line) as { status?: string; total?: number; completed?: number; error?: string };
          if (p.status === "success") ok = true;
          const percent = p.total && p.completed !== undefined ? Math.round((p.completed / p.total) * 1000) / 10 : undefined;
          controller.enqueue(encoder.encode(`data: ${JSON.stringify({ status: p.status ?? null, error: p.error, total: p.total, completed: p.completed, percent })}\n\n`));
        }
      },
      flush(controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ done: true, success: ok, model })}\n\n`));
      },
    }),
  );
}
