import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_TOPICS, NOT_SETTINGS, READ_BY_OTHERS, type ConfigVariable } from "../lib/config-docs.ts";
import { CONFIG_GUIDE, schemaDefault, writeConfigTables } from "../lib/config-docs-render.ts";
import { envSchema } from "../lib/config.ts";
import { llmTimeoutMs } from "../lib/llm/chat.ts";
import { DEFAULT_BREAKER_OPTIONS } from "../lib/llm/routing/breaker.ts";
import { tracingSettings } from "../lib/observability/settings.ts";
import { loadMailSettings } from "../lib/portal/config.ts";
import { DEFAULT_UPSTREAM_MAX_BYTES } from "../lib/upstream/capped-body.ts";

/**
 * docs/configuration.md against the code: its tables are what `npm run config:doc` writes from
 * lib/config-docs.ts, their defaults are the code's, every variable the code reads is documented and every
 * documented one is still read somewhere.
 */
const FIX = "run npm run config:doc";

const rows: ConfigVariable[] = CONFIG_TOPICS.flatMap((t) => t.variables);
const rowOf = (name: string) => rows.find((r) => r.names.includes(name));
const documentedNames = rows.flatMap((r) => r.names);
/** `UPSTREAM_<NAME>_URL` stands for every UPSTREAM_…_URL. */
const familyPattern = (name: string) => new RegExp(`^${name.replace(/<[A-Z]+>/g, "[A-Z0-9_]+")}$`);
const isDocumented = (name: string) => documentedNames.some((d) => familyPattern(d).test(name));

/** Where settings are read: the product, and the tests and benchmarks, which the guide's last table covers. */
const PRODUCT_ROOTS = ["lib", "app", "components", "scripts", "server.ts", "worker.ts", "proxy.ts", "next.config.mjs"];
const TEST_ROOTS = ["test", "bench", "e2e", "playwright.config.ts", "vitest.config.ts"];
/** This check and the documentation itself name every variable without reading any. */
const NOT_READERS = new Set(["lib/config-docs.ts", "lib/config-docs-render.ts", "test/config-doc.test.ts"]);
const isTestFile = (file: string) =>
  TEST_ROOTS.some((r) => file === r || file.startsWith(`${r}/`)) || /\.(test|spec)\.tsx?$/.test(file);

function sourceFiles(): Array<{ file: string; text: string }> {
  const files: string[] = [];
  const walk = (p: string) => {
    if (!fs.existsSync(p)) return;
    if (fs.statSync(p).isDirectory()) {
      if (/(^|\/)(node_modules|generated|\.next)$/.test(p)) return;
      for (const entry of fs.readdirSync(p)) walk(path.posix.join(p, entry));
    } else if (/\.(ts|tsx|mts|mjs|cjs|js)$/.test(p) && !NOT_READERS.has(p)) files.push(p);
  };
  for (const root of [...PRODUCT_ROOTS, ...TEST_ROOTS]) walk(root);
  return files.map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));
}

const NAME = "([A-Z][A-Z0-9_]*)";
/** How the code reads a variable: process.env.X, env.X, env["X"], a helper given (env, "X"). */
const READS = [
  new RegExp(`(?:process\\.env|\\b\\w*[eE]nv)(?:\\?\\.|\\.)${NAME}\\b`, "g"),
  new RegExp(`(?:process\\.env|\\b\\w*[eE]nv)\\[["'\`]${NAME}["'\`]\\]`, "g"),
  new RegExp(`\\b\\w*[eE]nv, *["']${NAME}["']`, "g"),
];
/**
 * The product's credentials, read by the name a catalogue entry gives (credential: "SERPER_API_KEY"). Not
 * the tests': theirs are the routing files' own variables, which an operator names (routing.md).
 */
const PRODUCT_READS = [
  new RegExp(`\\bcredential: *["']${NAME}["']`, "g"),
  new RegExp(`\\brequireCredential\\([^)]*?["']${NAME}["']\\)`, "g"),
];

/** Every variable the sources read, with the first file reading it; an envSchema's keys count as read. */
function variablesRead(files: Array<{ file: string; text: string }>): Map<string, string> {
  const read = new Map<string, string>();
  for (const { file, text } of files) {
    for (const pattern of isTestFile(file) ? READS : [...READS, ...PRODUCT_READS]) {
      for (const m of text.matchAll(pattern)) if (!read.has(m[1]!)) read.set(m[1]!, file);
    }
    const schema = /\benvSchema = z\.object\(\{\n([\s\S]*?)\n\}\);/.exec(text);
    for (const m of schema?.[1]!.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm) ?? [])
      if (!read.has(m[1]!)) read.set(m[1]!, file);
  }
  return read;
}

describe("docs/configuration.md", () => {
  it("is what npm run config:doc writes from lib/config-docs.ts", () => {
    const written = fs.readFileSync(CONFIG_GUIDE, "utf8");
    expect(written, `${CONFIG_GUIDE} differs from lib/config-docs.ts: ${FIX}`).toBe(writeConfigTables(written));
    expect(written).toContain("npm run config:doc");
  });

  it("documents each variable once", () => {
    const twice = documentedNames.filter((n, i) => documentedNames.indexOf(n) !== i);
    expect(twice).toEqual([]);
  });

  it("gives envSchema's defaults: the guide's values parse to what an empty environment gets", () => {
    const shape = envSchema.shape as Record<string, unknown>;
    const documentedEnv: Record<string, string> = {};
    for (const name of Object.keys(shape)) {
      const fromSchema = schemaDefault(name);
      if (fromSchema === undefined) continue;
      const row = rowOf(name);
      expect(row, `${name} has a default in lib/config.ts but no row in lib/config-docs.ts`).toBeDefined();
      const declared = row!.schemaDefaults?.[name];
      if (declared !== undefined) {
        expect(declared, `${name}: lib/config.ts's default changed; update schemaDefaults and the row's text`).toBe(
          fromSchema,
        );
        documentedEnv[name] = declared;
      } else {
        // Written from the schema (the row gives no default of its own), so the guide follows a change: FIX.
        expect(row!.default, `${name}: leave the row's default out, it is written from lib/config.ts`).toBeUndefined();
        const column = row!.names.map((n) => `\`${schemaDefault(n)}\``);
        documentedEnv[name] = column[row!.names.indexOf(name)]!.slice(1, -1);
      }
    }
    expect(Object.keys(documentedEnv).length).toBeGreaterThan(50);
    for (const r of rows) {
      for (const [name, value] of Object.entries(r.schemaDefaults ?? {})) {
        expect(schemaDefault(name), `${name}: schemaDefaults names a default lib/config.ts does not have`).toBe(value);
      }
    }
    // What the guide says, read by the schema, is what an operator who sets nothing gets.
    const withoutEmpty = Object.fromEntries(Object.entries(documentedEnv).filter(([, v]) => v !== ""));
    expect(envSchema.parse(withoutEmpty)).toEqual(envSchema.parse({}));
  });

  it("gives the defaults the code keeps outside envSchema", () => {
    const documented = (name: string) => rowOf(name)?.default;
    const code = (value: unknown) => `\`${String(value)}\``;
    const tracing = tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector.test:4318" })!;
    expect(documented("UPSTREAM_MAX_BYTES")).toBe(code(DEFAULT_UPSTREAM_MAX_BYTES));
    expect(documented("LLM_TIMEOUT_MS")).toBe(code(llmTimeoutMs({})));
    expect(documented("GATEWAY_BREAKER_THRESHOLD")).toBe(code(DEFAULT_BREAKER_OPTIONS.threshold));
    expect(documented("GATEWAY_BREAKER_COOLDOWN_MS")).toBe(code(DEFAULT_BREAKER_OPTIONS.cooldownMs));
    expect(documented("EMAIL_FROM")).toBe(code(loadMailSettings({}).emailFrom));
    expect(documented("OTEL_SERVICE_NAME")).toBe(code(tracing.serviceName));
    expect(documented("OTEL_TRACES_KEEP_SLOW_MS")).toBe(code(tracing.slowMs));
    expect(documented("OTEL_TRACES_SAMPLER_ARG")).toBe(code(tracing.ratio));
    expect(documented("OTEL_EXPORTER_OTLP_PROTOCOL")).toBe(code(tracing.protocol));
  });

  describe("and the variables the code reads", () => {
    const files = sourceFiles();
    const product = files.filter((f) => !isTestFile(f.file));

    it("documents every variable read in lib/, app/, scripts/, server.ts, worker.ts and the tests and benchmarks", () => {
      expect(files.length).toBeGreaterThan(500);
      const read = variablesRead(files);
      for (const name of ["PORT", "OTEL_SERVICE_NAME", "SERPER_API_KEY", "SMTP_URL", "FUZZ_SEED"]) {
        expect(read.has(name), `the scan no longer finds ${name}`).toBe(true);
      }
      const undocumented = [...read]
        .filter(([name]) => !isDocumented(name) && !(name in NOT_SETTINGS))
        .map(([name, file]) => `${name} (read in ${file})`);
      expect(undocumented, `add these to lib/config-docs.ts, then ${FIX}`).toEqual([]);
    });

    it("documents no variable that is no longer read (the last table's in tests and benchmarks)", () => {
      const mentions = (name: string, where: typeof files) => {
        const family = /<[A-Z]+>/.exec(name);
        const pattern = family
          ? new RegExp(`${name.slice(0, family.index)}\\$\\{`)
          : new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`);
        return where.some((f) => pattern.test(f.text));
      };
      const unread = CONFIG_TOPICS.flatMap((topic) =>
        topic.variables
          .flatMap((v) => v.names)
          .filter((name) => !(name in READ_BY_OTHERS))
          .filter((name) => !mentions(name, topic.id === "tests" ? files : product))
          .map((name) => `${name} (${topic.id})`),
      );
      expect(
        unread,
        `remove these from lib/config-docs.ts (or say who reads them in READ_BY_OTHERS), then ${FIX}`,
      ).toEqual([]);
    });

    it("keeps its allow-lists honest: READ_BY_OTHERS documented, NOT_SETTINGS not", () => {
      expect(Object.keys(READ_BY_OTHERS).filter((n) => !isDocumented(n))).toEqual([]);
      expect(Object.keys(NOT_SETTINGS).filter((n) => isDocumented(n))).toEqual([]);
    });
  });
});
