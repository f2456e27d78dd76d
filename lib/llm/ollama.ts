import { randomUUID } from "node:crypto";
import net from "node:net";
import { GatewayError } from "../errors.ts";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import type { KeyRecord, OPERATOR_SCOPES } from "../gateway/keys/record.ts";
import { readCappedText } from "../upstream/capped-body.ts";
import { CallStop } from "../upstream/call-stop.ts";
import { callUpstream, upstreamFailure, upstreamStatusError, USER_AGENT } from "../upstream/http.ts";
import { OLLAMA_DEFAULT_ORIGIN } from "../upstream/llm-catalogue.ts";
import { upstreamOrigin } from "../upstream/origin.ts";
import { pinnedRequest, resolveOnce } from "../upstream/pinned-request.ts";
import { checkDestination, defaultResolve, type Resolved } from "../upstream/safe-fetch.ts";
import { pool, untilAborted } from "../abortable.ts";
import { isOperatorRunner } from "./operator-runner.ts";

/** The operator scope (CLI only) that may pull and delete models on the operator's own runner. */
export const RUNNER_ADMIN_SCOPE: (typeof OPERATOR_SCOPES)[number] = "ollama:admin";

export type Host = { url: string; name: string | null; default: boolean };
export type HostWithStatus = Host & { status: "online" | "offline" };

/** What a runner may send for a model list, a status or an error: kilobytes from Ollama, so more is not Ollama. */
export const RUNNER_LIST_MAX_BYTES = 1024 * 1024;
/** Status probes one listing makes at once, and how long it waits for all of them, name lookups included. */
const STATUS_CONCURRENCY = 4;
export const STATUS_TIMEOUT_MS = 3000;

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
  if (url.username || url.password || url.pathname.replace(/\/+$/, "") !== "" || url.search)
    throw new GatewayError(400, "url must be an origin such as http://gpu-box:11434, without path or credentials");
  return url.origin;
}

/** Where a call goes: the operator's runner, or a host this key registered, pinned to its checked address. */
export type Runner = { url: string; default: boolean; address?: Resolved };

/**
 * A host registered by a key is a URL from a user: unless the operator allows private runners, it
 * must resolve only to public addresses, checked when it is added and again before every call.
 */
async function checkUserHost(rt: Runtime, url: string): Promise<Resolved> {
  const parsed = new URL(url);
  if (rt.config.ollamaAllowPrivateHosts) return resolveOnce(parsed.hostname, rt.resolveHost);
  return checkDestination(parsed, {
    maxBytes: 0,
    timeoutMs: 0,
    maxRedirects: 0,
    userAgent: "",
    resolve: rt.resolveHost,
  });
}

/** A registered host, resolved and checked once: every request of this call connects to that address. */
export async function pinnedRunner(rt: Runtime, url: string): Promise<Runner> {
  return { url, default: false, address: await checkUserHost(rt, url) };
}

/**
 * Hosts belong to a key's rotation lineage (`KeyRecord.limitKey`), as its limits do: a rotation keeps
 * them, and brings no fresh room under the cap.
 */
export async function listHosts(rt: Runtime, owner: string): Promise<Host[]> {
  const rows = await rt.db.prisma.ollamaHost.findMany({ where: { ownerKeyId: owner }, orderBy: { createdAt: "asc" } });
  return [defaultHost(), ...rows.map((r) => ({ url: r.url, name: r.name, default: false }))];
}

/** Refuses a new host past the cap (every listing probes each one); renaming a registered host is not a new one. */
export function assertRoomForHost(registered: readonly string[], url: string, cap: number): void {
  if (registered.includes(url) || registered.length < cap) return;
  throw new GatewayError(
    409,
    `this key has registered ${registered.length} runner hosts, the most allowed (${cap}, OLLAMA_HOSTS_PER_KEY)`,
  );
}

export async function addHost(rt: Runtime, owner: string, rawUrl: string, name?: string): Promise<Host> {
  const url = normaliseHostUrl(rawUrl);
  await checkUserHost(rt, url);
  await rt.db.prisma.$transaction(async (tx) => {
    // The lineage's first key row is the lock, so two registrations at once cannot both pass the count.
    await tx.$queryRaw`SELECT id FROM api_keys WHERE id = ${owner} FOR UPDATE`;
    const rows = await tx.ollamaHost.findMany({ where: { ownerKeyId: owner }, select: { url: true } });
    assertRoomForHost(
      rows.map((r) => r.url),
      url,
      rt.config.ollamaHostsPerKey,
    );
    await tx.ollamaHost.upsert({
      where: { ownerKeyId_url: { ownerKeyId: owner, url } },
      create: { id: randomUUID(), ownerKeyId: owner, url, name: name ?? null },
      update: { name: name ?? null },
    });
  });
  return { url, name: name ?? null, default: false };
}

/**
 * Removes a host this lineage registered, freeing its place under the cap. Another key's host with the
 * same URL is answered like one nobody registered (404), so a key learns nothing of other keys' hosts.
 */
export async function removeHost(rt: Runtime, owner: string, rawUrl: string): Promise<void> {
  const url = normaliseHostUrl(rawUrl);
  const { count } = await rt.db.prisma.ollamaHost.deleteMany({ where: { ownerKeyId: owner, url } });
  if (count === 0) throw new GatewayError(404, `host ${url} is not registered for this key`);
}

/**
 * Live status of each host, a few at a time, all within STATUS_TIMEOUT_MS: a host (or its name's
 * lookup) that is slow, or not reached before the time is up, reads as offline and never holds the answer.
 */
export async function withStatus(rt: Runtime, hosts: Host[], signal: AbortSignal): Promise<HostWithStatus[]> {
  const deadline = new CallStop(STATUS_TIMEOUT_MS).follow(signal);
  const status = async (host: Host) => {
    if (deadline.aborted) return "offline";
    return untilAborted(probe(rt, host, deadline.signal), deadline.signal).catch(() => "offline" as const);
  };
  try {
    return await pool(hosts, STATUS_CONCURRENCY, signal, async (host) => ({ ...host, status: await status(host) }));
  } finally {
    deadline.release();
  }
}

/** A registered host is checked and pinned like any call; anything wrong reads as offline. */
async function probe(rt: Runtime, host: Host, signal: AbortSignal): Promise<"online" | "offline"> {
  const runner = host.default ? { url: host.url, default: true } : await pinnedRunner(rt, host.url);
  const res = await runnerFetch(runner, "/api/version", { signal }, STATUS_TIMEOUT_MS);
  await res.body?.cancel();
  return res.ok ? "online" : "offline";
}

/** The runner a call goes to: the named host if this key's lineage registered it (403 otherwise), else the operator's default. */
export async function resolveHost(rt: Runtime, owner: string, requested?: string): Promise<Runner> {
  if (!requested) return { url: defaultHost().url, default: true };
  const url = normaliseHostUrl(requested);
  const host = (await listHosts(rt, owner)).find((h) => h.url === url);
  if (!host)
    throw new GatewayError(403, `host ${url} is not registered for this key; add it with POST /v1/llm/ollama/hosts`);
  return host.default ? { url, default: true } : pinnedRunner(rt, url);
}

const portOf = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));

/**
 * A registered host pinned to an address of the operator's runner is that runner under another name
 * (`http://localhost:11434` for `http://127.0.0.1:11434`, a second DNS name): as read-only as the runner.
 */
async function reachesOperatorRunner(rt: Runtime, runner: Runner): Promise<boolean> {
  if (!runner.address) return true;
  const operator = new URL(defaultHost().url);
  const host = operator.hostname.replace(/^\[|\]$/g, "");
  const addresses = net.isIP(host)
    ? [host]
    : (await (rt.resolveHost ?? defaultResolve)(host).catch(() => [])).map((a) => a.address);
  // Unresolvable: the operator's runner cannot be told apart from this host, so keep both read-only.
  if (addresses.length === 0) return true;
  return isOperatorRunner(
    { address: runner.address.address, port: portOf(new URL(runner.url)) },
    { addresses, port: portOf(operator) },
  );
}

/** Pulling and deleting change what every key sees on the operator's runner: only operator keys may. */
export async function assertMayChangeModels(rt: Runtime, key: KeyRecord, runner: Runner): Promise<void> {
  if (key.scopes.includes(RUNNER_ADMIN_SCOPE)) return;
  if (runner.default || (await reachesOperatorRunner(rt, runner))) {
    throw new GatewayError(
      403,
      `the operator's runner is read-only to API keys (pull and delete need the '${RUNNER_ADMIN_SCOPE}' scope); register your own host with POST /v1/llm/ollama/hosts`,
    );
  }
}

async function runnerFetch(
  runner: Runner,
  path: string,
  init: { method?: string; body?: string; signal?: AbortSignal },
  timeoutMs: number,
): Promise<Response> {
  const headers = { "content-type": "application/json", "user-agent": USER_AGENT };
  if (!runner.address)
    return callUpstream("ollama", `${runner.url}${path}`, { ...init, headers, redirect: "error" }, timeoutMs);
  return pinnedRequest(new URL(path, runner.url), runner.address, { ...init, headers, timeoutMs });
}

/** A registered host may be a private machine: its error bodies stay out of our answers. */
async function runnerFailure(runner: Runner, res: Response): Promise<GatewayError> {
  if (!runner.address) return upstreamFailure("ollama", res);
  await res.body?.cancel().catch(() => {});
  return upstreamStatusError(
    "ollama",
    res.status,
    res.headers.get("retry-after"),
    "a registered host's answer is not shown",
  );
}

/** A runner's JSON answer, read up to maxBytes (502 past it): a registered host is a stranger's server. */
export async function runnerJson<T>(
  runner: Runner,
  path: string,
  init: { method?: string; body?: string; signal?: AbortSignal } = {},
  timeoutMs = 10_000,
  maxBytes = RUNNER_LIST_MAX_BYTES,
): Promise<T> {
  const res = await runnerFetch(runner, path, init, timeoutMs);
  if (!res.ok) throw await runnerFailure(runner, res);
  const text = await readCappedText(res, "ollama", maxBytes);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new GatewayError(502, "ollama answered with something that is not JSON");
  }
}

export type RunnerModel = {
  name: string;
  size: number | null;
  modified_at: string | null;
  family: string | null;
  parameter_size: string | null;
  quantization: string | null;
};

type TagsBody = {
  models?: Array<{
    name: string;
    size?: number;
    modified_at?: string;
    details?: { family?: string; parameter_size?: string; quantization_level?: string };
  }>;
};

export async function installedModels(runner: Runner, timeoutMs?: number): Promise<RunnerModel[]> {
  const body = await runnerJson<TagsBody>(runner, "/api/tags", {}, timeoutMs);
  return (body.models ?? []).map((m) => ({
    name: m.name,
    size: m.size ?? null,
    modified_at: m.modified_at ?? null,
    family: m.details?.family ?? null,
    parameter_size: m.details?.parameter_size ?? null,
    quantization: m.details?.quantization_level ?? null,
  }));
}

type RunningModel = { name: string; size: number | null; size_vram: number | null; expires_at: string | null };

export async function runningModels(runner: Runner): Promise<RunningModel[]> {
  const body = await runnerJson<{
    models?: Array<{ name: string; size?: number; size_vram?: number; expires_at?: string }>;
  }>(runner, "/api/ps");
  return (body.models ?? []).map((m) => ({
    name: m.name,
    size: m.size ?? null,
    size_vram: m.size_vram ?? null,
    expires_at: m.expires_at ?? null,
  }));
}

export async function deleteModel(runner: Runner, model: string): Promise<void> {
  const res = await runnerFetch(runner, "/api/delete", { method: "DELETE", body: JSON.stringify({ model }) }, 10_000);
  if (res.status === 404) {
    await res.body?.cancel();
    throw new GatewayError(404, `model '${model}' is not installed`);
  }
  if (!res.ok) throw await runnerFailure(runner, res);
  await res.body?.cancel();
}

const MAX_PROGRESS_LINE = 64 * 1024;

/** Pulls a model, turning Ollama's NDJSON progress into server-sent events ending with {done: true}. */
export async function pullModel(
  runner: Runner,
  model: string,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const res = await runnerFetch(
    runner,
    "/api/pull",
    { method: "POST", body: JSON.stringify({ model, stream: true }), signal },
    60 * 60_000,
  );
  if (!res.ok || !res.body) throw await runnerFailure(runner, res);
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
        if (buffered.length > MAX_PROGRESS_LINE)
          throw new GatewayError(502, "ollama sent a progress line longer than 64 KiB");
        for (const line of lines) {
          if (!line.trim()) continue;
          const p = JSON.parse(line) as { status?: string; total?: number; completed?: number; error?: string };
          if (p.status === "success") ok = true;
          const percent =
            p.total && p.completed !== undefined ? Math.round((p.completed / p.total) * 1000) / 10 : undefined;
          controller.enqueue(
            encoder.encode(
              `data: ${JSON.stringify({ status: p.status ?? null, error: p.error, total: p.total, completed: p.completed, percent })}\n\n`,
            ),
          );
        }
      },
      flush(controller) {
        controller.enqueue(encoder.encode(`data: ${JSON.stringify({ done: true, success: ok, model })}\n\n`));
      },
    }),
  );
}
