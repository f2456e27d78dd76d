import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * The code blocks of the guides (docs/api.md says how they are written and run): a fenced block whose
 * info string says `runnable` is run against a test server by test/doc-examples.test.ts, one that says
 * `not-runnable: <reason>` is listed as skipped with its reason, and a `json answer` block right under a
 * runnable one lists fields its answer must have. A block calling the gateway with neither fails.
 */

/** Where the examples say the gateway is (`npm start`'s address); the test puts its server's in their place. */
export const DOC_GATEWAY_URLS = ["http://127.0.0.1:3000", "http://localhost:3000"] as const;
/** A key written out in an example; replaced by the test's key. The key is also in `$API_KEY`. */
export const DOC_KEY_PLACEHOLDER = "sk_...";
export const DOC_KEY_VARIABLE = "API_KEY";

export type Marker =
  { kind: "runnable" } | { kind: "not-runnable"; reason: string } | { kind: "answer" } | { kind: "none" };

export type DocBlock = {
  /** As given to readDocBlocks (a path from the project root). */
  file: string;
  /** The opening fence's line, from 1. */
  line: number;
  /** The info string's first word, lowercased ("" when none). */
  lang: string;
  info: string;
  code: string;
  marker: Marker;
  /** A runnable block's `json answer`: the next block, when it is one. */
  answer?: { line: number; text: string };
};

export type DocScan = {
  blocks: DocBlock[];
  /** What breaks the rules, each naming the file and line. */
  problems: string[];
};

const OPENING = /^(\s*)(`{3,}|~{3,})(.*)$/;
/** A block that calls the gateway: curl, its address, a /v1 path, or an OpenAI or Anthropic SDK client. */
const CALLS_GATEWAY = [
  /\bcurl\s/,
  /\b(?:127\.0\.0\.1|localhost):3000\b/,
  /<gateway>/,
  /\/v1\/[a-z]/,
  /\b(?:OpenAI|Anthropic)\s*\(/,
  /\.(?:chat\.completions|messages|responses)\.create\s*\(/,
];
/** How each language is run. */
export const RUNNERS = {
  bash: "shell",
  sh: "shell",
  shell: "shell",
  console: "shell",
  js: "node",
  javascript: "node",
  mjs: "node",
  ts: "tsx",
  typescript: "tsx",
  python: "python",
  py: "python",
} as const;
export type Runner = (typeof RUNNERS)[keyof typeof RUNNERS];

export function runnerOf(block: DocBlock): Runner | undefined {
  return (RUNNERS as Record<string, Runner>)[block.lang];
}

export function callsGateway(code: string): boolean {
  return CALLS_GATEWAY.some((re) => re.test(code));
}

function parseMarker(lang: string, rest: string): Marker | { kind: "bad"; why: string } {
  if (!rest) return { kind: "none" };
  if (rest === "runnable") return { kind: "runnable" };
  if (lang === "json" && rest === "answer") return { kind: "answer" };
  const skipped = /^not-runnable:\s*(.*)$/.exec(rest);
  if (skipped) {
    const reason = skipped[1]!.trim();
    return reason ? { kind: "not-runnable", reason } : { kind: "bad", why: "`not-runnable:` needs a reason after it" };
  }
  return {
    kind: "bad",
    why: `unknown marker "${rest}" (past the language an info string says \`runnable\`, \`not-runnable: <reason>\` or, on a json block, \`answer\`)`,
  };
}

/** Every fenced block of a Markdown text, with its marker, and what breaks the rules. */
export function readDocBlocks(file: string, text: string): DocScan {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  const problems: string[] = [];
  const at = (line: number) => `${file}:${line}`;
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!);
    if (!open) {
      // Outside the fenced blocks a curl call to /v1, in an indented block or inline code, can be neither
      // run nor marked.
      if (/^(?: {4}|\t)\s*curl\s.*\/v1\b/.test(lines[i]!))
        problems.push(
          `${at(i + 1)}: a curl call to /v1 in an indented code block; put it in a fenced block marked \`runnable\` or \`not-runnable: <reason>\``,
        );
      for (const span of lines[i]!.matchAll(/`([^`]+)`/g))
        if (/\bcurl\s/.test(span[1]!) && /\/v1\b/.test(span[1]!))
          problems.push(
            `${at(i + 1)}: a curl call to /v1 in inline code; put it in a fenced block marked \`runnable\` or \`not-runnable: <reason>\``,
          );
      continue;
    }
    const [, indent, fence, infoRaw] = open;
    if (fence![0] === "`" && infoRaw!.includes("`")) continue; // not a fence (CommonMark), inline code
    const info = infoRaw!.trim();
    const closing = new RegExp(`^\\s*${fence![0] === "`" ? "`" : "~"}{${fence!.length},}\\s*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !closing.test(lines[j]!); j++)
      body.push(lines[j]!.replace(new RegExp(`^ {0,${indent!.length}}`), ""));
    const lang = (info.split(/\s+/)[0] ?? "").toLowerCase();
    const rest = info.slice(lang.length).trim();
    const parsed = parseMarker(lang, rest);
    const block: DocBlock = {
      file,
      line: i + 1,
      lang,
      info,
      code: body.join("\n") + "\n",
      marker: parsed.kind === "bad" ? { kind: "none" } : parsed,
    };
    if (parsed.kind === "bad") problems.push(`${at(block.line)}: ${parsed.why}`);
    blocks.push(block);
    i = j;
  }
  for (const [n, block] of blocks.entries()) {
    const where = at(block.line);
    const previous = blocks[n - 1];
    if (block.marker.kind === "answer") {
      if (previous?.marker.kind !== "runnable")
        problems.push(`${where}: a \`json answer\` block must come right after a \`runnable\` block`);
      else previous.answer = { line: block.line, text: block.code };
      try {
        JSON.parse(block.code);
      } catch (err) {
        problems.push(`${where}: the \`json answer\` is not JSON: ${(err as Error).message}`);
      }
    }
    if (block.marker.kind === "runnable" && !runnerOf(block))
      problems.push(
        `${where}: a \`${block.lang || "(no language)"}\` block cannot be run; runnable languages: ${Object.keys(RUNNERS).join(", ")}`,
      );
    if (block.marker.kind === "none" && callsGateway(block.code))
      problems.push(
        `${where}: this \`${block.lang || "(no language)"}\` block calls the gateway but is marked neither \`runnable\` nor \`not-runnable: <reason>\` in its info string`,
      );
  }
  return { blocks, problems };
}

/** The example with the test server's address and key put where the docs write `npm start`'s and `sk_...`. */
export function substitute(code: string, url: string, key: string): string {
  let out = code;
  for (const documented of DOC_GATEWAY_URLS) out = out.split(documented).join(url);
  return out.split(DOC_KEY_PLACEHOLDER).join(key);
}

function typeOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/**
 * How `actual` falls short of the `expected` answer, by path: every field of an expected object is
 * present with a value of the same JSON type (the documented values are examples), recursively; each
 * element of an expected array is matched by some element of the actual one; `null` allows anything.
 */
export function answerMismatches(expected: unknown, actual: unknown, at = "answer"): string[] {
  if (expected === null) return [];
  if (typeOf(expected) !== typeOf(actual))
    return [`${at}: expected ${typeOf(expected)}, got ${typeOf(actual)} ${JSON.stringify(actual)?.slice(0, 120)}`];
  if (Array.isArray(expected)) {
    const items = actual as unknown[];
    return expected.flatMap((want, i) => {
      if (items.some((item) => answerMismatches(want, item).length === 0)) return [];
      return items.length
        ? [`${at}[${i}]: no element matches; the first differs as ${answerMismatches(want, items[0], `${at}[0]`)[0]}`]
        : [`${at}: expected an element like ${JSON.stringify(want).slice(0, 120)}, got []`];
    });
  }
  if (typeof expected === "object") {
    const got = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).flatMap(([name, want]) =>
      Object.hasOwn(got, name) ? answerMismatches(want, got[name], `${at}.${name}`) : [`${at}.${name}: missing`],
    );
  }
  return [];
}

/** The JSON an example printed: all of its output, or else its last line. */
export function printedJson(stdout: string): unknown {
  const text = stdout.trim();
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(text.split("\n").at(-1) ?? "");
  }
}

export type ExampleRun = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The HTTP status of each curl call, in order (0: no answer). */
  statuses: number[];
  timedOut: boolean;
};

const STATUS_LINE = /^@doc-example-status (\d{3})$/gm;

/**
 * A scratch directory for the examples: a `curl` on its PATH that runs the real one and reports each
 * call's status on stderr, the project's node_modules (for SDK imports) and the files the examples read.
 */
export function prepareExampleDir(dir: string, realCurl: string, root: string, files: Record<string, Buffer>): void {
  fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
  // Written last, the status line wins over an example's own --write-out; --max-time bounds a hung call.
  fs.writeFileSync(
    path.join(dir, "bin", "curl"),
    `#!/bin/sh\nexec ${JSON.stringify(realCurl)} --silent --show-error --max-time 60 "$@" --write-out '%{stderr}\\n@doc-example-status %{http_code}\\n'\n`,
    { mode: 0o755 },
  );
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
}

/** The real curl's path, or undefined when there is none. */
export function findCurl(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v curl"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() || undefined : undefined;
}

/**
 * Runs one (substituted) example in `dir`: shell under bash with -e and pipefail, npm in the project
 * `root` (where a reader runs it); JavaScript on node as an ES module; TypeScript through tsx; Python on python3.
 */
export async function runExample(
  runner: Runner,
  code: string,
  options: { dir: string; root: string; env: NodeJS.ProcessEnv; name: string; timeoutMs?: number },
): Promise<ExampleRun> {
  const { dir, root, env, name } = options;
  let command: string;
  let args: string[];
  if (runner === "shell") {
    const prelude = `set -eo pipefail\nnpm() { (cd ${JSON.stringify(root)} && command npm "$@"); }\n`;
    [command, args] = ["bash", ["-c", prelude + code]];
  } else {
    const file = path.join(dir, `${name}.${{ node: "mjs", tsx: "mts", python: "py" }[runner]}`);
    fs.writeFileSync(file, code);
    [command, args] =
      runner === "python"
        ? ["python3", [file]]
        : [process.execPath, [...(runner === "tsx" ? ["--import", "tsx"] : []), file]];
  }
  const proc = spawn(command, args, {
    cwd: dir,
    env: { ...env, PATH: `${path.join(dir, "bin")}${path.delimiter}${env.PATH ?? ""}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, options.timeoutMs ?? 60_000);
  const [code_, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    proc.once("error", reject);
    proc.once("close", (c, s) => resolve([c, s]));
  }).finally(() => clearTimeout(timer));
  const statuses = [...stderr.matchAll(STATUS_LINE)].map((m) => Number(m[1]));
  return { code: code_, signal, stdout, stderr: stderr.replace(STATUS_LINE, "").trim(), statuses, timedOut };
}

/** The Python modules an example imports that python3 cannot, or why python3 cannot run at all. */
export function missingPythonModules(code: string): string | undefined {
  const modules = [...code.matchAll(/^\s*(?:import|from)\s+([A-Za-z_]\w*)/gm)].map((m) => m[1]!);
  const probe = spawnSync("python3", ["-c", modules.map((m) => `import ${m}`).join("\n") || "pass"], {
    encoding: "utf8",
  });
  if (probe.error) return `python3 is not installed`;
  if (probe.status === 0) return undefined;
  const missing = /No module named '([^']+)'/.exec(probe.stderr)?.[1];
  return missing
    ? `python3 has no \`${missing}\` module (pip install ${missing} to run it)`
    : probe.stderr.trim().split("\n").at(-1);
}
