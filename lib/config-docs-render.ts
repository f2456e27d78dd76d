import { z } from "zod";
import { CONFIG_TOPICS, type ConfigTopic, type ConfigVariable } from "./config-docs.ts";
import { envSchema } from "./config.ts";

/** Where the guide lives, relative to the project root. */
export const CONFIG_GUIDE = "docs/configuration.md";

const START = (id: string) => `<!-- generated:config:${id} -->`;
const END = "<!-- /generated -->";

/**
 * The default envSchema gives a variable as the operator writes it (before any transform: CONSOLE_KEY_SCOPES'
 * comma list, not its parsed array), or undefined when the schema has none or does not read the variable.
 */
export function schemaDefault(name: string): string | undefined {
  let field: unknown = (envSchema.shape as Record<string, z.ZodType>)[name];
  while (field instanceof z.ZodPipe) field = field.in;
  return field instanceof z.ZodDefault ? String(field.def.defaultValue) : undefined;
}

/** A row's default column: as written, else each name's schema default in backticks. */
export function defaultColumn(variable: ConfigVariable): string {
  if (variable.default !== undefined) return variable.default;
  return variable.names
    .map((name) => {
      const value = schemaDefault(name);
      if (value === undefined || value === "") {
        throw new Error(`${name}: envSchema has no default to write, so lib/config-docs.ts must give the default`);
      }
      return `\`${value}\``;
    })
    .join(", ");
}

/** One topic's Markdown table. */
export function configTable(topic: ConfigTopic): string {
  const rows = topic.variables.map(
    (v) => `| ${v.label ?? v.names.map((n) => `\`${n}\``).join(", ")} | ${defaultColumn(v)} | ${v.meaning} |`,
  );
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}

/**
 * The guide with every topic's table written between its markers, the prose around them kept as it is.
 * A topic without its markers, or markers naming no topic, is an error naming them.
 */
export function writeConfigTables(markdown: string, topics: readonly ConfigTopic[] = CONFIG_TOPICS): string {
  const known = new Set(topics.map((t) => t.id));
  for (const m of markdown.matchAll(/<!-- generated:config:([\w-]+) -->/g)) {
    if (!known.has(m[1]!)) throw new Error(`${CONFIG_GUIDE}: marker ${m[0]} names no topic of lib/config-docs.ts`);
  }
  let out = markdown;
  for (const topic of topics) {
    const start = out.indexOf(START(topic.id));
    const end = start < 0 ? -1 : out.indexOf(END, start);
    if (start < 0 || end < 0) {
      throw new Error(`${CONFIG_GUIDE}: no ${START(topic.id)} … ${END} for the topic "${topic.heading}"`);
    }
    const from = start + START(topic.id).length;
    out = `${out.slice(0, from)}\n\n${configTable(topic)}\n\n${out.slice(end)}`;
  }
  return out;
}
