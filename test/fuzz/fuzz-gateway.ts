import http from "node:http";
import { fileURLToPath } from "node:url";
import { backendEnv } from "../support/backends.ts";
import { runKeysCli, startServerProcess } from "../support/server-process.ts";
import { BASELINE_LABEL, casesForOperation, type FuzzCase } from "./hostile-cases.ts";
import { judgeAnswer, type Answer } from "./judge-answer.ts";
import { listOperations, operationName, type OpenApiDocument } from "./openapi-operations.ts";
import { responseSchemas } from "./response-schemas.ts";
import { seededRandom } from "./seeded-random.ts";
import { sendRaw } from "./send-raw.ts";

/**
 * Operations whose valid call starts long or heavy work (a Chromium page, research agents, video,
 * batches, archive jobs, model pulls): they get only input that breaks their schema for certain,
 * which validation must refuse before anything starts.
 */
export const LONG_WORK = new Set([
  "POST /v1/screenshot/capture",
  "POST /v1/orchestrate/dream-cascade",
  "POST /v1/orchestrate/dream-swarm",
  "POST /v1/swarm/chat",
  "POST /v1/swarm/hive",
  "POST /v1/llm/video/generate",
  "POST /v1/llm/batch",
  "POST /v1/llm/batch/create",
  "POST /v1/utils/archive/create",
  "POST /v1/llm/ollama/models/pull",
]);

export type FuzzOptions = {
  casesPerOperation: number;
  seed: number;
  /** How long one answer may take: a request not answered in time fails its case. */
  timeoutMs: number;
  concurrency: number;
  /** Only the operations whose name (`POST /v1/documents/generate`) this matches, to replay a finding. */
  only?: RegExp;
};

export type Finding = { operation: string; label: string; request: string; status: number; problems: string[] };

export type FuzzReport = {
  operations: number;
  cases: number;
  statuses: Record<string, number>;
  findings: Finding[];
  /** Server output when it died during the run (a crash is a finding of its own). */
  crashed?: string;
};

// A small body cap keeps the over-the-cap case cheap; every other limit high so 429s do not hide answers.
const MAX_BODY_BYTES = 1024 * 1024;
/** How long a baseline may take: the first call of an area may load its data. */
const FIRST_CALL_TIMEOUT_MS = 60_000;

/** A short, printable description of a request, enough to replay it. */
export function describeRequest(c: FuzzCase): string {
  const body =
    c.body === undefined
      ? ""
      : ` body(${Buffer.byteLength(c.body)} B)=${JSON.stringify(
          (typeof c.body === "string" ? c.body : c.body.toString("latin1")).slice(0, 160),
        )}`;
  const headers = Object.entries(c.headers)
    .filter(([name]) => name !== "x-api-key" || c.headers[name] !== "<key>")
    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
    .join(", ");
  return `${c.method} ${c.target.slice(0, 300)}${headers ? ` [${headers}]` : ""}${body}`;
}

/**
 * One case within the time an answer may take, asked twice when the first gets no answer in time: a
 * thread's first import of a heavy module (pdfkit, pdf.js, the corpus) takes seconds on a busy machine,
 * once, while work that is slow for this input is slow again.
 */
export async function sendInTime(origin: string, c: FuzzCase, timeoutMs: number, agent: http.Agent): Promise<Answer> {
  const first = await sendRaw(origin, c, timeoutMs, agent);
  if (!first.timedOut) return first;
  const again = await sendRaw(origin, c, timeoutMs, agent);
  return again.timedOut ? { ...again, failure: `${again.failure}, twice` } : again;
}

/**
 * Starts server.ts as a real process (PGlite, no portal, network jailed to loopback), issues a key
 * with limits no run reaches, reads the gateway's own /openapi.json, then sends every operation its
 * seeded hostile cases, `concurrency` at a time, and judges each answer.
 */
export async function fuzzGateway(options: FuzzOptions): Promise<FuzzReport> {
  const backend = await backendEnv("pglite");
  const preload = fileURLToPath(new URL("./jail-preload.ts", import.meta.url));
  const env = {
    ...backend.env,
    SERVE_PORTAL: "false",
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    // A heavy job stopped at its own limit answers 422, which passes: the limit is set past the
    // fuzzer's, so work that takes longer than an answer may is a finding, not a 422 (a PDF of one
    // 100 kB word took 30 s and passed as a 422 while the limit was below the fuzzer's).
    WORKER_JOB_TIMEOUT_MS: String(options.timeoutMs * 2),
    KEYLESS_RATE_PER_MINUTE: "1000000",
    KEYLESS_CONCURRENCY: "1000",
  };
  const made = await runKeysCli(
    ["create", "--name", "fuzz", "--day", "1000000000", "--minute", "100000000", "--concurrency", "100000"],
    env,
  );
  const key = (made.lines[0] as { key: string }).key;
  const server = await startServerProcess(env, "server.ts", [preload]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  try {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as OpenApiDocument;
    const schemas = responseSchemas(doc);
    const operations = listOperations(doc).filter((op) => !options.only || options.only.test(operationName(op)));
    const random = seededRandom(options.seed);
    const report: FuzzReport = { operations: operations.length, cases: 0, statuses: {}, findings: [] };
    const work = operations.flatMap((op) =>
      casesForOperation(doc, op, options.casesPerOperation, random, {
        maxBodyBytes: MAX_BODY_BYTES,
        longWork: LONG_WORK.has(operationName(op)),
      }).map((c) => ({ op, c })),
    );
    // Every baseline first, with room for what a first call loads (a corpus index built on a fresh data
    // directory blocks the server for seconds, a thread imports pdfkit or pdf.js): the time bound is
    // for the input's own work.
    const firstCalls = work.filter(({ c }) => c.label === BASELINE_LABEL);
    const rest = work.filter(({ c }) => c.label !== BASELINE_LABEL);
    const queue = [
      ...firstCalls.map((w) => ({ ...w, timeoutMs: Math.max(FIRST_CALL_TIMEOUT_MS, options.timeoutMs) })),
      ...rest.map((w) => ({ ...w, timeoutMs: options.timeoutMs })),
    ];
    let next = 0;
    const worker = async () => {
      while (next < queue.length && server.proc.exitCode === null && server.proc.signalCode === null) {
        const { op, c, timeoutMs } = queue[next++]!;
        const keyed = op.auth !== "none" && !("x-api-key" in c.headers);
        const sent = { ...c, headers: { ...(keyed ? { "x-api-key": key } : {}), ...c.headers } };
        const answer = await sendInTime(server.url, sent, timeoutMs, agent);
        report.cases++;
        report.statuses[String(answer.status)] = (report.statuses[String(answer.status)] ?? 0) + 1;
        const problems = judgeAnswer(op, answer, schemas, { otherRoute: c.otherRoute });
        if (problems.length) {
          const shown = keyed ? { ...sent, headers: { ...sent.headers, "x-api-key": "<key>" } } : sent;
          report.findings.push({
            operation: c.operation,
            label: c.label,
            request: describeRequest(shown),
            status: answer.status,
            problems,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) report.crashed = server.output().slice(-4000);
    return report;
  } finally {
    agent.destroy();
    await server.stop();
    await backend.cleanup();
  }
}
