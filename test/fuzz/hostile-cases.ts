import {
  operationName,
  resolveRef,
  type OpenApiDocument,
  type Operation,
  type Parameter,
  type Schema,
} from "./openapi-operations.ts";
import { isFreeText, rewriteFields, type Rewrite } from "./rewrite-fields.ts";
import { objectShape, sampleValue, schemaType } from "./sample-value.ts";
import { sample, type Random } from "./seeded-random.ts";

export type FuzzCase = {
  operation: string;
  label: string;
  method: string;
  /** The request target as it goes on the wire: already percent-encoded and never normalised. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Breaks the schema for certain (so validation must refuse it before any work starts). */
  invalid: boolean;
  /**
   * The target names another route: its dot segments are resolved (RFC 3986), or an empty path
   * parameter leaves the parent's path (`/conditions/` is the list). Such an answer is judged by the
   * rules every answer keeps, not by this operation's response schema.
   */
  otherRoute: boolean;
};

// JSON.stringify cannot write some numbers (-0, past double range, past 2^53): such values are
// marked strings, unquoted after stringifying.
const RAW = "\u0001raw:";
const raw = (text: string) => RAW + text;
export const toJson = (value: unknown) => JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)"/g, "$1");

const nested = (depth: number) => raw("[".repeat(depth) + "]".repeat(depth));

/** Strings for JSON bodies: unicode a database or parser may choke on, sizes, and injection shapes. */
export const HOSTILE_TEXT: ReadonlyArray<[string, string]> = [
  ["empty string", ""],
  ["lone high surrogate", "a\ud800b"],
  ["lone low surrogate", "\udc00"],
  ["NUL character", "a\u0000b"],
  ["200 KB string", "x".repeat(200_000)],
  ["bidi override, combining marks, emoji, BOM", "\u202eabc\u0301\u0301 \u{1F469}\u200d\u{1F467} \ufeff"],
  ["path traversal", "../../../../etc/passwd"],
  ["encoded traversal", "..%2F..%2Fetc%2Fpasswd"],
  ["markup", "<script>alert(1)</script><h1>x</h1>"],
  ["bad base64", "!!!not*base64==="],
  ["data URL with bad base64", "data:image/png;base64,@@@@"],
  ["CRLF", "a\r\nX-Injected: 1"],
  ["file URL", "file:///etc/passwd"],
  ["loopback URL", "http://127.0.0.1:1/"],
  ["whitespace only", " \t\n "],
  // Text that a parser of JSON, YAML, TOML, XML or Markdown would nest 50,000 deep.
  ["50,000 open brackets", "[".repeat(50_000)],
  ["20,000 nested tags", "<a>".repeat(20_000)],
  ["20,000 nested quotes", "> ".repeat(20_000) + "x"],
];

/** Numbers at and past every edge, some only writable as raw JSON. */
export const HOSTILE_NUMBERS: ReadonlyArray<[string, unknown]> = [
  ["-1", -1],
  ["0", 0],
  ["-0", raw("-0")],
  ["0.5", 0.5],
  ["1e308", 1e308],
  ["1e999 (Infinity when parsed)", raw("1e999")],
  ["-1e999", raw("-1e999")],
  ["2^53 + 1", raw("9007199254740993")],
  ["1e30 as digits", raw("1000000000000000000000000000000")],
  ["string NaN", "NaN"],
  ["string Infinity", "Infinity"],
];

/** Already-encoded values for path segments and query parameters. */
export const HOSTILE_URL_VALUES: ReadonlyArray<[string, string]> = [
  ["empty", ""],
  ["encoded-slash traversal", "..%2F..%2F..%2Fetc%2Fpasswd"],
  ["double-encoded traversal", "%252e%252e%252fetc%252fpasswd"],
  ["encoded slash", "a%2Fb"],
  ["encoded backslash traversal", "..%5C..%5Cwindows"],
  ["encoded NUL", "a%00b"],
  ["lone surrogate as UTF-8 bytes", "%ED%A0%80"],
  ["invalid UTF-8", "%FF%FE"],
  ["broken escape %", "%"],
  ["broken escape %zz", "%zz"],
  ["6 KB value", "a".repeat(6_000)],
  ["emoji", "%F0%9F%92%A9"],
  ["dot-dot", ".."],
  ["-1", "-1"],
  ["huge number", "99999999999999999999999"],
  ["NaN", "NaN"],
  ["Infinity", "Infinity"],
  ["1e400", "1e400"],
  ["fraction", "1.5"],
  ["markup", "%3Cscript%3Ealert(1)%3C%2Fscript%3E"],
];

/** A value of the wrong JSON type for a schema, or undefined when every type would do. */
function wrongType(schema: Schema): unknown {
  switch (schemaType(schema)) {
    case "string":
      return 12345;
    case "integer":
    case "number":
      return "12";
    case "boolean":
      return "yes";
    case "array":
      return { not: "an array" };
    case "object":
      return ["not", "an", "object"];
    default:
      return undefined;
  }
}

type Request = { params: Record<string, string>; query: [string, string][]; body: unknown };

function buildTarget(op: Operation, request: Request): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => request.params[name] ?? "x");
  const query = request.query.map(([name, value]) => `${encodeURIComponent(name)}=${value}`).join("&");
  return query ? `${path}?${query}` : path;
}

/** The request a valid call would make: sample path parameters, query and body. */
export function baselineRequest(doc: OpenApiDocument, op: Operation): Request {
  const params: Record<string, string> = {};
  const query: [string, string][] = [];
  const encode = (value: unknown) => encodeURIComponent(String(value));
  const queryParams = op.parameters.filter((p) => p.in === "query");
  const chosen = queryParams.filter((p) => p.required || "example" in p.schema);
  // Form A / Form B queries make no parameter required; the first one stands for the form.
  if (!queryParams.some((p) => p.required) && queryParams[0] && !chosen.includes(queryParams[0])) {
    chosen.push(queryParams[0]);
  }
  for (const p of op.parameters) {
    if (p.in === "path") params[p.name] = encode(sampleValue(doc, p.schema));
  }
  for (const p of chosen) query.push([p.name, encode(sampleValue(doc, p.schema))]);
  return { params, query, body: op.jsonBody ? sampleValue(doc, op.jsonBody) : undefined };
}

type Draft = Omit<FuzzCase, "operation" | "method" | "headers" | "target" | "otherRoute"> & {
  request?: Request;
  headers?: Record<string, string>;
};

/**
 * Every hostile variant of one operation's request: each path parameter, query parameter and body
 * property broken in each way its type allows, the body as a whole (not JSON, not an object, nested
 * 100,000 deep, over the size cap, bad UTF-8, prototype keys), wrong content types, missing or bad keys.
 */
export function hostileCases(doc: OpenApiDocument, op: Operation, options: { maxBodyBytes: number }): FuzzCase[] {
  const base = baselineRequest(doc, op);
  const drafts: Draft[] = [];
  const withParam = (name: string, value: string) => ({ ...base, params: { ...base.params, [name]: value } });
  const withQuery = (query: [string, string][]) => ({ ...base, query });
  const baseJson = base.body === undefined ? "" : toJson(base.body);

  for (const p of op.parameters) {
    if (p.in === "path") {
      for (const [label, value] of HOSTILE_URL_VALUES) {
        drafts.push({ label: `path ${p.name}: ${label}`, request: withParam(p.name, value), invalid: false });
      }
      drafts.push({
        label: `path ${p.name}: raw traversal`,
        request: withParam(p.name, "../../../etc/passwd"),
        invalid: false,
      });
    }
    if (p.in !== "query") continue;
    const others = base.query.filter(([name]) => name !== p.name);
    if (p.required) drafts.push({ label: `query ${p.name}: missing`, request: withQuery(others), invalid: true });
    for (const [label, value] of HOSTILE_URL_VALUES) {
      drafts.push({
        label: `query ${p.name}: ${label}`,
        request: withQuery([...others, [p.name, value]]),
        invalid: false,
      });
    }
    drafts.push({
      label: `query ${p.name}: given twice`,
      request: withQuery([...others, [p.name, "a"], [p.name, "b"]]),
      invalid: false,
    });
    const type = schemaType(p.schema);
    if (type === "integer" || type === "number" || type === "boolean") {
      drafts.push({
        label: `query ${p.name}: not a ${type}`,
        request: withQuery([...others, [p.name, "abc"]]),
        invalid: true,
      });
    }
  }

  if (op.jsonBody) bodyDrafts(doc, op, base, baseJson, options.maxBodyBytes, drafts);
  for (const type of op.otherBodyTypes) {
    drafts.push({
      label: `body: bytes that are not ${type}`,
      headers: { "content-type": type },
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x13, 0x37, 0x00, 0x01]),
      invalid: false,
    });
  }

  if (op.auth === "key") {
    drafts.push({ label: "auth: no key", headers: { "x-api-key": "" }, invalid: true });
    drafts.push({ label: "auth: malformed key", headers: { "x-api-key": "sk_\u00ff\u00fe'; --" }, invalid: true });
    drafts.push({
      label: "auth: bearer without token",
      headers: { "x-api-key": "", authorization: "Bearer " },
      invalid: true,
    });
  }

  return drafts.map((draft) => finish(op, base, draft));
}

function bodyDrafts(
  doc: OpenApiDocument,
  op: Operation,
  base: Request,
  baseJson: string,
  maxBodyBytes: number,
  drafts: Draft[],
): void {
  const json = (label: string, body: string | Buffer, invalid: boolean) => drafts.push({ label, body, invalid });
  json("body: truncated JSON", '{"a":', true);
  json("body: empty", "", op.bodyRequired);
  json("body: JSON null", "null", true);
  json("body: JSON array", "[]", true);
  json("body: JSON string", '"text"', true);
  json("body: 1e999", "1e999", true);
  json("body: nested 100,000 deep", toJson(nested(100_000)), true);
  json("body: over the size cap", toJson({ padding: "x".repeat(maxBodyBytes + 1024) }), true);
  json("body: UTF-8 BOM first", `\ufeff${baseJson}`, false);
  const objectBody = baseJson.startsWith("{") && baseJson !== "{}";
  const rest = objectBody ? `,${baseJson.slice(1)}` : "}";
  json(
    "body: __proto__ and constructor keys",
    `{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}${rest}`,
    false,
  );
  drafts.push({
    label: "content-type: text/plain",
    headers: { "content-type": "text/plain" },
    body: baseJson,
    invalid: false,
  });
  drafts.push({
    label: "content-type: form-urlencoded",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "a=1&b=%ZZ",
    invalid: true,
  });
  drafts.push({ label: "content-type: none", headers: { "content-type": "" }, body: baseJson, invalid: false });
  drafts.push({
    label: "content-type: multipart without boundary",
    headers: { "content-type": "multipart/form-data" },
    body: baseJson,
    invalid: false,
  });
  drafts.push({
    label: "content-type: JSON as UTF-16",
    headers: { "content-type": "application/json; charset=utf-16" },
    body: Buffer.from(baseJson, "utf16le"),
    invalid: false,
  });

  const shape = objectShape(doc, op.jsonBody);
  if (!shape || typeof base.body !== "object" || base.body === null || Array.isArray(base.body)) return;
  const valid = base.body as Record<string, unknown>;
  const properties = shape.properties as Record<string, Schema>;
  const required = new Set((shape.required as string[] | undefined) ?? []);
  const firstName = Object.keys(properties)[0];
  if (firstName) {
    const prefix = Buffer.from(`{"${firstName}":"`);
    json(
      `body ${firstName}: invalid UTF-8 bytes`,
      Buffer.concat([prefix, Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}')]),
      false,
    );
  }
  json("body: duplicate keys", objectBody ? `{"${firstName}":1,${baseJson.slice(1)}` : baseJson, false);
  for (const [name, input] of Object.entries(properties)) {
    const schema = resolveRef(doc, input) ?? {};
    const type = schemaType(schema);
    const put = (label: string, value: unknown, invalid: boolean) =>
      json(`body ${name}: ${label}`, toJson({ ...valid, [name]: value }), invalid);
    if (required.has(name)) {
      const { [name]: _dropped, ...without } = valid;
      json(`body ${name}: missing`, toJson(without), true);
    }
    const wrong = wrongType(schema);
    if (wrong !== undefined && !schema.anyOf && !schema.oneOf) put("wrong type", wrong, true);
    put("null", null, required.has(name) && !(Array.isArray(schema.type) && schema.type.includes("null")));
    put("nested 100,000 deep", nested(100_000), type !== "array" && type !== undefined);
    if (type === "string") {
      for (const [label, value] of HOSTILE_TEXT) put(label, value, false);
      if (typeof schema.maxLength === "number") put("one past maxLength", "x".repeat(schema.maxLength + 1), true);
    }
    if (type === "integer" || type === "number") for (const [label, value] of HOSTILE_NUMBERS) put(label, value, false);
    if (type === "array")
      put("100,000 items", new Array(100_000).fill(sampleValue(doc, schema.items as Schema)), false);
    nestedDrafts(doc, name, schema, valid, json);
  }
  json("body: unknown property with a lone surrogate", toJson({ ...valid, "\ud800": "\udfff" }), false);
}

/** Whether a URL parser rewrites the target's path (`/a/../b` is `/b`). */
export const resolvesElsewhere = (target: string) =>
  new URL(target, "http://fuzz.invalid").pathname !== target.split("?")[0];

/**
 * One level further down: each field of an object property, or of an array property's first item
 * (`messages[0].content`), given the wrong type, null, and the strings and numbers that break parsers
 * and databases. Only `wrong type` is certain to break the schema (a union may take null).
 */
function nestedDrafts(
  doc: OpenApiDocument,
  name: string,
  schema: Schema,
  valid: Record<string, unknown>,
  json: (label: string, body: string, invalid: boolean) => void,
): void {
  const inArray = schemaType(schema) === "array";
  const shape = objectShape(doc, inArray ? (schema.items as Schema | undefined) : schema);
  if (!shape) return;
  const sampled = valid[name] ?? sampleValue(doc, schema);
  const parent = (inArray ? (sampled as unknown[])[0] : sampled) as Record<string, unknown> | undefined;
  if (typeof parent !== "object" || parent === null || Array.isArray(parent)) return;
  for (const [field, input] of Object.entries(shape.properties as Record<string, Schema>)) {
    const fieldSchema = resolveRef(doc, input) ?? {};
    const path = inArray ? `${name}[0].${field}` : `${name}.${field}`;
    const put = (label: string, value: unknown, invalid: boolean) => {
      const changed = { ...parent, [field]: value };
      const whole = inArray ? [changed, ...(sampled as unknown[]).slice(1)] : changed;
      json(`body ${path}: ${label}`, toJson({ ...valid, [name]: whole }), invalid);
    };
    const wrong = wrongType(fieldSchema);
    if (wrong !== undefined && !fieldSchema.anyOf && !fieldSchema.oneOf) put("wrong type", wrong, true);
    put("null", null, false);
    const type = schemaType(fieldSchema);
    if (type === "string") {
      for (const [label, value] of HOSTILE_TEXT.filter(([l]) => /surrogate|NUL|200 KB|nested|brackets/.test(l))) {
        put(label, value, false);
      }
    }
    if (type === "integer" || type === "number") {
      for (const [label, value] of HOSTILE_NUMBERS) put(label, value, false);
    }
  }
}

function finish(op: Operation, base: Request, draft: Draft): FuzzCase {
  const request = draft.request ?? base;
  const target = buildTarget(op, request);
  return {
    operation: operationName(op),
    label: draft.label,
    method: op.method.toUpperCase(),
    target,
    headers: { ...(op.jsonBody ? { "content-type": "application/json" } : {}), ...draft.headers },
    body: draft.body ?? (op.jsonBody ? toJson(request.body) : undefined),
    invalid: draft.invalid,
    otherRoute: resolvesElsewhere(target) || Object.values(request.params).includes(""),
  };
}

/** The longest unbroken word a free-text field of a JSON body is given: a page of layout, 100 kB. */
export const LONG_WORD_BYTES = 100_000;
/** What the URL of one request may carry in long words: Node refuses a request head past 16 KB (431). */
const LONG_URL_BYTES = 12_000;

const fitLength = (schema: Schema, text: string, pad: string) =>
  text.padEnd(Number(schema.minLength ?? 0), pad).slice(0, Number(schema.maxLength ?? Infinity));

/**
 * Whole-request cases, each a valid-looking call with every free-text field (JSON body at any depth,
 * query and path) changed at once, as a caller might send them and as a schema allows: one unbroken
 * 100 kB word (shorter where a field's maxLength says so, or where the body cap leaves less), nothing
 * at all (empty strings and arrays where allowed), and whitespace only. They reach the work behind
 * validation (layout, parsing, search) with the input that makes it slow or empty.
 */
export function everyFieldCases(doc: OpenApiDocument, op: Operation, options: { maxBodyBytes: number }): FuzzCase[] {
  const base = baselineRequest(doc, op);
  const freeText = op.parameters.filter((p) => (p.in === "path" || p.in === "query") && isFreeText(p.schema));
  const rewrite = (text: Rewrite["text"], array: Rewrite["array"], urlValue: (p: Parameter) => string | undefined) => {
    const params = { ...base.params };
    const query = base.query.filter(([name]) => !freeText.some((p) => p.in === "query" && p.name === name));
    for (const p of freeText) {
      const value = urlValue(p);
      if (p.in === "path") params[p.name] = value ?? params[p.name]!;
      else {
        const kept = base.query.find(([name]) => name === p.name)?.[1];
        if (value !== undefined) query.push([p.name, value]);
        else if (kept !== undefined) query.push([p.name, kept]);
      }
    }
    const body = op.jsonBody ? rewriteFields(doc, op.jsonBody, base.body, { text, array }) : undefined;
    return { params, query, body };
  };

  // One pass to count the body's free-text fields, so that all their words together fit under the cap.
  let fields = 0;
  rewrite(
    () => (fields++, "#"),
    undefined,
    () => undefined,
  );
  const word = Math.min(LONG_WORD_BYTES, Math.floor((options.maxBodyBytes * 0.9) / Math.max(fields, 1)));
  const urlWord = Math.floor(LONG_URL_BYTES / Math.max(freeText.length, 1));
  const drafts: Draft[] = [
    {
      label: "every free-text field: one unbroken 100 kB word",
      request: rewrite(
        (schema) => fitLength(schema, "A".repeat(word), "A"),
        undefined,
        (p) => fitLength(p.schema, "A".repeat(urlWord), "A"),
      ),
      invalid: false,
    },
    {
      label: "every free-text field and array empty, where the schema allows",
      request: rewrite(
        (schema) => (Number(schema.minLength ?? 0) === 0 ? "" : undefined),
        (schema) => (Number(schema.minItems ?? 0) === 0 ? [] : undefined),
        (p) => (p.in === "query" && Number(p.schema.minLength ?? 0) === 0 ? "" : undefined),
      ),
      invalid: false,
    },
    {
      label: "every free-text field whitespace only",
      request: rewrite(
        (schema) => fitLength(schema, " \t\n ", " "),
        undefined,
        (p) => (p.in === "query" ? "%20%09%0A" : undefined),
      ),
      invalid: false,
    },
  ];
  // An operation with no free-text field would get its baseline again.
  const baseline = baselineCase(doc, op);
  return drafts
    .map((draft) => finish(op, base, draft))
    .filter((c) => c.target !== baseline.target || c.body !== baseline.body);
}

export const BASELINE_LABEL = "baseline (valid-looking input)";

/** The valid-looking call, for checking a 2xx answer against the declared response schema. */
export function baselineCase(doc: OpenApiDocument, op: Operation): FuzzCase {
  return finish(op, baselineRequest(doc, op), { label: BASELINE_LABEL, invalid: false });
}

/**
 * What one run sends to an operation: the baseline, the every-field cases, then `count` hostile cases
 * in a seeded order. Operations that start long work (`longWork`) get only cases that break the schema
 * for certain, which validation must refuse before the work starts.
 */
export function casesForOperation(
  doc: OpenApiDocument,
  op: Operation,
  count: number,
  random: Random,
  options: { maxBodyBytes: number; longWork: boolean },
): FuzzCase[] {
  const hostile = hostileCases(doc, op, options).filter((c) => !options.longWork || c.invalid);
  const always = options.longWork ? [] : [baselineCase(doc, op), ...everyFieldCases(doc, op, options)];
  return [...always, ...sample(hostile, count, random)];
}
