import { z } from "zod";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import {
  checkRoutingText,
  MAX_ROUTING_BYTES,
  normaliseText,
  saveRoutingText,
  saveTarget,
  versionOf,
  type RoutingPlace,
} from "./routing-edits.ts";

/** What the routing editor's Check and Save answer: a message, or an error with each problem where it is. */
export type RoutingActionState = {
  message?: string;
  error?: string;
  /** `line:column path: problem`, one per problem. */
  problems?: string[];
  /** The saved file's version: the next Save is checked against it. */
  version?: string;
};

/** Who asks: an operator may edit, anyone else is refused. */
export type RoutingEditor = { operator: boolean; actor: string };

const form = z.object({
  // Characters, a bound on the form alone; the byte cap (and its message) is checkRoutingText's.
  text: z.string({ error: "the file's text is missing" }).max(MAX_ROUTING_BYTES * 4, "the text is far too long"),
  version: z.string().regex(/^[0-9a-f]{64}$/, "the page's file version is missing: reload the page"),
});

/**
 * The editor's Check (`save` false) and Save, for the server actions: refused unless `editor` is an
 * operator; the text checked as at start-up; on Save written, put in force and audited.
 */
export async function routingAction(
  rt: Runtime,
  editor: RoutingEditor | null,
  input: Record<string, unknown>,
  save: boolean,
  place: RoutingPlace = { env: process.env, cwd: process.cwd() },
): Promise<RoutingActionState> {
  if (!editor?.operator) return { error: "operators only: sign in with an address listed in ADMIN_EMAILS" };
  const parsed = form.safeParse(input);
  if (!parsed.success) return { error: parsed.error.issues[0]!.message };
  const text = normaliseText(parsed.data.text);
  const target = saveTarget(rt.config.routing, place);
  const result = save
    ? await saveRoutingText(rt, { text, version: parsed.data.version, actor: editor.actor }, place)
    : checkRoutingText(text, target, place.env);
  if (!result.ok)
    return {
      error: `${save ? "Not saved" : "Not valid"}: ${result.error}.`,
      problems: result.problems.map((p) => `${p.line}:${p.column} ${p.path ? `${p.path}: ` : ""}${p.message}`),
    };
  const { aliases, deployments } = result.routing;
  const summary = `${aliases.size} alias${aliases.size === 1 ? "" : "es"}, ${deployments.size} deployment${deployments.size === 1 ? "" : "s"}`;
  if (!save) return { message: `The file is valid: ${summary}.` };
  return { message: `Saved to ${target} and in force on this instance: ${summary}.`, version: versionOf(text) };
}
