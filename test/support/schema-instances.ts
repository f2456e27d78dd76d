import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { generateSync, type JsonSchema, type Random } from "json-schema-faker";
import { normaliseIsbn } from "../../lib/data-sources/openlibrary/isbn.ts";

// Arguments made from a tool's published JSON Schema alone, to show that whatever the schema allows
// the tool accepts. json-schema-faker makes random instances (patterns included); the boundary
// instances here add what random ones rarely are: only the required fields, the shortest strings
// (whitespace only where no pattern forbids it), the longest, the bounds of numbers and arrays, and
// every enum value. All are seeded, so a failure names the same arguments on every run.

type Schema = Exclude<JsonSchema, boolean>;
export type Instance = { label: string; args: Record<string, unknown> };

/** An ISBN-10 or ISBN-13 whose check digit matches, maybe hyphenated. */
function isbn(random: Random): string {
  const digits = (n: number) => Array.from({ length: n }, () => random.int(0, 9));
  let all: (number | string)[];
  if (random.bool()) {
    const body = digits(9);
    const check = (11 - (body.reduce((sum, d, i) => sum + d * (10 - i), 0) % 11)) % 11;
    all = [...body, check === 10 ? "X" : check];
  } else {
    const body = [9, 7, 8, ...digits(9)];
    all = [...body, (10 - (body.reduce((sum, d, i) => sum + d * (i % 2 ? 3 : 1), 0) % 10)) % 10];
  }
  return all.join(random.bool() ? "-" : "");
}

/**
 * The formats the tool schemas use beyond JSON Schema's own: "isbn" (an ISBN whose check digit
 * matches), as the gateway defines it. Both the generator and the validator need it.
 */
const FORMATS = { isbn };

// Strict, but for "required" naming a field only the object around it defines (the if/then of census).
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, logger: false });
addFormats(ajv);
ajv.addFormat("isbn", { type: "string", validate: (value: string) => normaliseIsbn(value) !== null });

/** Ajv's verdict on a value (JSON Schema 2020-12, formats asserted): null when valid, else the errors. */
export function schemaErrors(schema: Schema, value: unknown): string | null {
  const validate = ajv.compile(schema);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

/** Strings the faker makes for a string schema with a pattern or format, from a few seeds. */
const samples = (schema: Schema, seed: number) =>
  Array.from({ length: 12 }, (_, i) => generateSync(schema, { seed: seed * 100 + i, formats: FORMATS }) as string);

/** One value at the short or long end of a property's schema; `k` picks among enum values and anyOf branches. */
function boundary(schema: Schema, end: "short" | "long", k: number): unknown {
  if ("const" in schema) return schema.const;
  if (schema.enum) return schema.enum[k % schema.enum.length];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return boundary(branches[k % branches.length] as Schema, end, k);
  switch (schema.type) {
    case "string": {
      if (schema.pattern !== undefined || schema.format !== undefined) {
        const made = samples(schema, k + 1).sort((a, b) => a.length - b.length);
        if (end === "short") return made[0];
        // The faker makes short text for a pattern that is not anchored ("\S"): pad it to maxLength
        // where the pattern still matches, so the longest text allowed is tried too.
        const longest = made[made.length - 1]!;
        const padded = longest.padEnd(schema.maxLength ?? longest.length, "x");
        return schema.format === undefined && new RegExp(schema.pattern!, "u").test(padded) ? padded : longest;
      }
      // Without a pattern, the emptiest text allowed: spaces only.
      return end === "short" ? " ".repeat(schema.minLength ?? 0) : "x".repeat(schema.maxLength ?? 64);
    }
    case "integer":
    case "number":
      return end === "short" ? (schema.minimum ?? 0) : (schema.maximum ?? 1000);
    case "boolean":
      return end === "long";
    case "array": {
      const count = end === "short" ? (schema.minItems ?? 0) : (schema.maxItems ?? 3);
      return Array.from({ length: count }, (_, i) => boundary((schema.items ?? {}) as Schema, end, k + i));
    }
    default:
      throw new Error(`schema-instances: no boundary value for ${JSON.stringify(schema)}`);
  }
}

const choices = (p: Schema) => p.enum?.length ?? p.anyOf?.length ?? p.oneOf?.length ?? 1;

/** The required fields and those `with` picks (all, or the ones with a choice to make), at one end. */
function boundaryObject(schema: Schema, end: "short" | "long", k: number, extra: "all" | "choices") {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  const wanted = properties.filter(
    ([name, p]) => schema.required?.includes(name) || extra === "all" || (k > 0 && choices(p) > 1),
  );
  return Object.fromEntries(wanted.map(([name, property]) => [name, boundary(property, end, k)]));
}

/** How many enum values or anyOf branches the widest property has: one boundary instance each. */
const widest = (schema: Schema) =>
  Math.max(1, ...Object.values((schema.properties ?? {}) as Record<string, Schema>).map(choices));

/**
 * Arguments for an object schema: for each enum value or anyOf branch (k), the required fields with
 * only the fields that choose (k = 0: the required fields alone), then every field at its shortest
 * and at its longest; and `seeds` random instances from json-schema-faker, alternately with and
 * without the optional fields. A boundary guess the schema refuses (an if/then it does not read) is
 * dropped; duplicates too.
 */
export function schemaInstances(schema: Schema, seeds = 4): Instance[] {
  const made: Instance[] = [];
  for (let k = 0; k < widest(schema); k++) {
    made.push({
      label: k ? `choice #${k} only` : "required only",
      args: boundaryObject(schema, "short", k, "choices"),
    });
    made.push({ label: `shortest #${k}`, args: boundaryObject(schema, "short", k, "all") });
    made.push({ label: `longest #${k}`, args: boundaryObject(schema, "long", k, "all") });
  }
  const boundaries = made.splice(0).filter(({ args }) => schemaErrors(schema, args) === null);
  made.push(...boundaries);
  for (let seed = 1; seed <= seeds; seed++) {
    const args = generateSync(schema, { seed, formats: FORMATS, alwaysFakeOptionals: seed % 2 === 0 });
    made.push({ label: `random #${seed}`, args: args as Record<string, unknown> });
  }
  const seen = new Set<string>();
  return made.filter(({ args }) => {
    const key = JSON.stringify(args);
    return !seen.has(key) && Boolean(seen.add(key));
  });
}

/**
 * The schema with its strings and arrays held short: the faker takes seconds over a string allowed
 * 20,000,000 characters however short its maxLength option asks for, and a long array of long
 * strings covers no more than a short one.
 */
function small(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema), function (this: Record<string, unknown>, key, value: unknown) {
    if (key === "maxLength" && typeof value === "number")
      return Math.max(Math.min(value, 64), Number(this.minLength ?? 0));
    if (key === "maxItems" && typeof value === "number")
      return Math.max(Math.min(value, 3), Number(this.minItems ?? 0));
    return value;
  }) as Schema;
}

/**
 * One instance of a schema that `accepts` (a zod contract's own check, which may say more than its
 * JSON Schema) takes, or undefined: small random ones first (words, where the boundary ones are blanks
 * a handler may refuse), without then with optional fields, then the required fields at their shortest. Cheap where schemaInstances is not: no
 * longest instance (500 messages of 100,000 characters).
 */
export function acceptedInstance(schema: Schema, accepts: (value: unknown) => boolean): Instance | undefined {
  const short = small(schema);
  for (let seed = 1; seed <= 8; seed++) {
    // The first four leave the optional fields out: a made-up provider, model or tool is refused before
    // any upstream is asked, where the default goes on to one.
    const optionalsProbability = seed <= 4 ? 0 : 0.5;
    const args = generateSync(short, { seed, formats: FORMATS, maxItems: 3, maxLength: 64, optionalsProbability });
    if (accepts(args)) return { label: `random #${seed}`, args: args as Record<string, unknown> };
  }
  const required = { label: "required only", args: boundaryObject(short, "short", 0, "choices") };
  return accepts(required.args) ? required : undefined;
}
