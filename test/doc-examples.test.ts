import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeWikipedia, type FakeSource } from "./fakes/data-sources.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { backendEnv } from "./support/backends.ts";
import {
  answerMismatches,
  DOC_KEY_VARIABLE,
  findCurl,
  missingPythonModules,
  prepareExampleDir,
  printedJson,
  readDocBlocks,
  runExample,
  runnerOf,
  substitute,
  type DocBlock,
  type ExampleRun,
} from "./support/doc-examples.ts";
import { runKeysCli, startServerProcess, type ServerProcess } from "./support/server-process.ts";

// The guides' examples, run against one server.ts process (no portal; PGlite; network jailed to loopback)
// with fake upstreams: xAI for the model calls, Wikipedia for the data-source ones. How blocks are marked
// and what is substituted: docs/api.md (its opening) and test/support/doc-examples.ts.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DOCS = ["README.md", "docs/getting-started.md", "docs/api.md", "docs/llm.md"];
const scans = DOCS.map((file) => readDocBlocks(file, fs.readFileSync(path.join(ROOT, file), "utf8")));
const blocks = scans.flatMap((s) => s.blocks);
const runnable = blocks.filter((b) => b.marker.kind === "runnable" && runnerOf(b));
const skipped = blocks.flatMap((b) =>
  b.marker.kind === "not-runnable" ? [{ block: b, reason: b.marker.reason }] : [],
);

/** Every provider the gateway reads a key for: all blank but xAI's, whatever the runner's environment holds. */
const PROVIDERS = ["XAI", "OPENAI", "ANTHROPIC", "MISTRAL", "GROQ", "PERPLEXITY", "GEMINI", "COHERE"];
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`;

/** At most `n` of the calls given at once; the others wait their turn. */
function limiter(n: number) {
  let free = n;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

describe("the marking rules", () => {
  it("find unmarked calls, bad markers and stray answers, and tie an answer to its example", () => {
    const text = [
      "Intro with `curl http://127.0.0.1:3000/v1/key` inline.", // 1
      "```bash", // 2
      "curl -sS http://127.0.0.1:3000/v1/key", // 3
      "```", // 4
      "```bash runnable", // 5
      "curl -sS -H 'X-API-Key: sk_...' http://localhost:3000/v1/key", // 6
      "```", // 7
      "```json answer", // 8
      '{"id": "key_1"}', // 9
      "```", // 10
      "- a list item:", // 11
      "  ```python not-runnable:", // 12
      "  client = OpenAI(base_url='http://127.0.0.1:3000/v1')", // 13
      "  ```", // 14
      "```json answer", // 15
      "{}", // 16
      "```", // 17
      "```bash runable", // 18
      "npm test", // 19
      "```", // 20
      "```bash", // 21
      "npm install && npm start", // 22
      "```", // 23
      "    curl http://127.0.0.1:3000/v1/key", // 24
    ].join("\n");
    const { blocks: found, problems } = readDocBlocks("x.md", text);
    expect(found.map((b) => [b.line, b.lang, b.marker.kind])).toEqual([
      [2, "bash", "none"],
      [5, "bash", "runnable"],
      [8, "json", "answer"],
      [12, "python", "none"],
      [15, "json", "answer"],
      [18, "bash", "none"],
      [21, "bash", "none"],
    ]);
    expect(found[1]!.answer).toEqual({ line: 8, text: '{"id": "key_1"}\n' });
    expect(found[3]!.code).toBe("client = OpenAI(base_url='http://127.0.0.1:3000/v1')\n");
    expect(problems).toEqual([
      expect.stringMatching(/^x\.md:1: a curl call to \/v1 in inline code/),
      expect.stringMatching(/^x\.md:12: `not-runnable:` needs a reason/),
      expect.stringMatching(/^x\.md:18: unknown marker "runable"/),
      expect.stringMatching(/^x\.md:24: a curl call to \/v1 in an indented code block/),
      expect.stringMatching(/^x\.md:2: this `bash` block calls the gateway but is marked neither/),
      expect.stringMatching(/^x\.md:12: this `python` block calls the gateway/),
      expect.stringMatching(/^x\.md:15: a `json answer` block must come right after a `runnable` block/),
    ]);
    expect(substitute(found[1]!.code, "http://127.0.0.1:5555", "sk_real")).toBe(
      "curl -sS -H 'X-API-Key: sk_real' http://127.0.0.1:5555/v1/key\n",
    );
  });

  it("check an answer's fields and their types, not the example values", () => {
    const expected = { id: "key_1", limits: { minute: 100 }, scopes: [], results: [{ title: "x" }], expires_at: null };
    const actual = { id: "key_9", limits: { minute: 5, day: 9 }, scopes: ["llm"], results: [{ a: 1 }, { title: "y" }] };
    expect(answerMismatches(expected, { ...actual, expires_at: "2027-01-01" })).toEqual([]);
    expect(answerMismatches(expected, { ...actual, limits: { minute: "5" }, results: [{ a: 1 }] })).toEqual([
      'answer.limits.minute: expected number, got string "5"',
      "answer.results[0]: no element matches; the first differs as answer.results[0].title: missing",
      "answer.expires_at: missing",
    ]);
  });
});

describe("the guides' examples", () => {
  it("every block that calls the gateway is marked runnable or not-runnable (with a reason)", () => {
    expect(scans.flatMap((s) => s.problems)).toEqual([]);
    expect(runnable.length).toBeGreaterThan(0);
  });

  const curl = findCurl();
  let server: ServerProcess | undefined;
  let key = "";
  let dir = "";
  let exampleEnv: NodeJS.ProcessEnv = process.env;
  const closing: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "doc-examples-"));
    closing.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const [xai, wikipedia]: [FakeLlm, FakeSource] = await Promise.all([
      startFakeOpenAICompatible({ key: "xai-doc-examples", reply: "Hello there, how are you?" }),
      startFakeWikipedia(),
    ]);
    closing.push(xai.close, wikipedia.close);
    const backend = await backendEnv("pglite");
    closing.push(backend.cleanup);
    const env: Record<string, string> = {
      ...backend.env,
      SERVE_PORTAL: "false",
      HOST: "127.0.0.1",
      ...Object.fromEntries(PROVIDERS.map((p) => [`${p}_API_KEY`, ""])),
      XAI_API_KEY: "xai-doc-examples",
      UPSTREAM_XAI_URL: xai.url,
      UPSTREAM_WIKIPEDIA_URL: wikipedia.url,
    };
    const jail = fileURLToPath(new URL("./fuzz/jail-preload.ts", import.meta.url));
    server = await startServerProcess(env, "server.ts", [jail]);
    closing.unshift(() => server!.stop("SIGKILL"));
    // The documented way to a key, through the running server; a minute limit no run of these reaches.
    const made = await runKeysCli(["create", "--name", "doc examples", "--minute", "1000"], env);
    expect(made.code, made.stderr).toBe(0);
    key = (made.lines[0] as { key: string }).key;
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#e07020" } })
      .png()
      .toBuffer();
    if (curl) prepareExampleDir(dir, curl, ROOT, { "photo.png": photo });
    else fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    // What a reader's shell holds: the key in $API_KEY, and what the keys CLI needs to find the server.
    const { DATABASE_URL: _db, REDIS_URL: _redis, ...inherited } = process.env;
    exampleEnv = { ...inherited, ...env, LOG_LEVEL: "silent", [DOC_KEY_VARIABLE]: key };
  });

  afterAll(async () => {
    for (const close of closing.splice(0)) await close();
  });

  for (const { block, reason } of skipped) it.skip(`${where(block)} ${block.lang}: not runnable, ${reason}`);

  // Two at a time: each example is a process or a few (the keys CLI's is a tsx start of seconds), and the
  // machine may have two cores shared with other test files. No example depends on another.
  const slot = limiter(2);
  for (const [n, block] of runnable.entries()) {
    it.concurrent(
      `${where(block)} ${block.lang}`,
      async (ctx) => {
        const runner = runnerOf(block)!;
        if (runner === "shell" && /\bcurl\s/.test(block.code) && !curl)
          ctx.skip(`${where(block)}: no curl binary on PATH, so this curl example cannot run`);
        if (runner === "python") {
          const missing = missingPythonModules(block.code);
          if (missing) ctx.skip(`${where(block)}: ${missing}`);
        }
        const code = substitute(block.code, server!.url, key);
        const run = await slot(() =>
          runExample(runner, code, { dir, root: ROOT, env: exampleEnv, name: `example-${n}` }),
        );
        const problems = judge(block, run);
        if (problems.length) throw new Error(report(block, code, run, problems));
        // Its 60 s, and the turns it may wait for a slot.
      },
      180_000,
    );
  }
});

/** What is wrong with an example's run: its exit, any call's status, its answer's fields. */
function judge(block: DocBlock, run: ExampleRun): string[] {
  const problems: string[] = [];
  if (run.timedOut) problems.push("did not finish within 60 s");
  else if (run.code !== 0) problems.push(`exited with ${run.code ?? run.signal}`);
  if (/\bcurl\s/.test(block.code) && runnerOf(block) === "shell" && run.statuses.length === 0)
    problems.push("made no curl call");
  for (const [i, status] of run.statuses.entries())
    if (status < 200 || status > 299) problems.push(`curl call ${i + 1} answered ${status || "nothing"}, not 2xx`);
  if (block.answer && problems.length === 0) {
    let printed: unknown;
    try {
      printed = printedJson(run.stdout);
    } catch {
      return [`printed no JSON to compare with the answer at line ${block.answer.line}`];
    }
    for (const m of answerMismatches(JSON.parse(block.answer.text), printed))
      problems.push(`differs from the answer at line ${block.answer.line}: ${m}`);
  }
  return problems;
}

function report(block: DocBlock, code: string, run: ExampleRun, problems: string[]): string {
  const cut = (s: string) => (s.length > 3000 ? `${s.slice(0, 3000)}… (${s.length} characters)` : s);
  return [
    `${where(block)}: the \`${block.lang}\` example ${problems.join("; ")}`,
    `--- as run ---\n${cut(code.trimEnd())}`,
    `--- stdout ---\n${cut(run.stdout.trimEnd())}`,
    `--- stderr ---\n${cut(run.stderr)}`,
  ].join("\n");
}
