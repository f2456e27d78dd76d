import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../../db/client.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { parseRoutingConfig, RoutingConfigError, type RoutingProblem } from "../../llm/routing/config.ts";
import { buildRouting, type Routing } from "../../llm/routing/deployments.ts";
import { reloadRouting } from "../../llm/routing/runtime-router.ts";
import { providerEntry } from "../../upstream/llm-catalogue.ts";
import { policyDoes } from "../keys/guardrail-policy.ts";

/** The most text the editor saves: a routing file is a few kilobytes; this stops a paste of anything else. */
export const MAX_ROUTING_BYTES = 256 * 1024;

/** Where the process reads its environment and resolves a relative GATEWAY_CONFIG. */
export type RoutingPlace = { env: Record<string, string | undefined>; cwd: string };

const processPlace = (): RoutingPlace => ({ env: process.env, cwd: process.cwd() });

export type RoutingFormat = "json" | "yaml";

/** What the admin page shows: the file, its text, and what is in force on this instance. */
export type RoutingView = {
  /** The file in force, as the operator named it; absent: none, the deployments come from the environment. */
  file?: string;
  /** Where Save writes: the file in force, else GATEWAY_CONFIG's path, else ./gateway.config.json. */
  target: string;
  format: RoutingFormat;
  /** The target's text now (empty when there is no file yet). */
  text: string;
  /** Its hash, sent back on Save so a file changed meanwhile is not overwritten unseen. */
  version: string;
  deployments: {
    name: string;
    provider: string;
    model: string;
    weight: number;
    origin?: string;
    /** The environment variable's name; never its value. */
    credential: string;
    /** Whether the variable is set: "not needed" for a keyless provider (a local runner) given its origin. */
    credentialState: "set" | "not set" | "not needed";
    /** Made from the environment or an alias's `provider/model`, not declared in the file. */
    implicit: boolean;
  }[];
  aliases: {
    name: string;
    strategy: string;
    deployments: { name: string; weight: number }[];
    retries?: number;
    timeoutMs?: number;
  }[];
  /** The guardrail policies the file declares: what each does, where it checks, and the aliases naming it. */
  guardrails: { name: string; does: string; stages: string[]; aliases: string[] }[];
};

/** A check or save that found the text unusable: each problem where it is, or one reason. */
export type RoutingRefusal = { ok: false; error: string; problems: RoutingProblem[] };
export type RoutingChecked = { ok: true; routing: Routing };

/** The routing file the runtime has in force, its text on disk and the effective deployments and aliases. */
export function routingView(routing: Routing, place: RoutingPlace = processPlace()): RoutingView {
  const target = saveTarget(routing, place);
  const text = readIfThere(path.resolve(place.cwd, target));
  return {
    ...(routing.file !== undefined && { file: routing.file }),
    target,
    format: formatOf(target),
    text,
    version: versionOf(text),
    deployments: [...routing.deployments.values()].map((d) => ({
      name: d.name,
      provider: d.provider,
      model: d.model,
      weight: d.weight,
      ...(d.origin !== undefined && { origin: d.origin }),
      credential: d.credential,
      credentialState: place.env[d.credential]?.trim()
        ? "set"
        : providerEntry(d.provider)?.keyless && d.origin !== undefined
          ? "not needed"
          : "not set",
      implicit: d.implicit,
    })),
    aliases: [...routing.aliases.values()].map((a) => ({
      name: a.name,
      strategy: a.strategy,
      deployments: a.deployments.map((t) => ({ name: t.deployment.name, weight: t.weight })),
      ...(a.retries !== undefined && { retries: a.retries }),
      ...(a.timeoutMs !== undefined && { timeoutMs: a.timeoutMs }),
    })),
    guardrails: [...routing.guardrails.values()].map((p) => ({
      name: p.name,
      does: policyDoes(p),
      stages: [
        ...(p.prompt || p.checks.some((c) => c !== "pii" && c !== "words" && c !== "json_schema") ? ["prompt"] : []),
        ...(p.answer || p.answerSchema ? ["answer"] : []),
        ...(p.checks.includes("injection") ? ["what the research agents read"] : []),
      ],
      aliases: [...routing.aliases.values()].filter((a) => a.guardrails === p.name).map((a) => a.name),
    })),
  };
}

/**
 * Whether `text` would start the gateway, as the file `target`: the start-up checks (every credential
 * set in this process's environment, so a restart cannot fail on it), in the target's format, under the
 * size cap. On success, the routing it gives.
 */
export function checkRoutingText(
  text: string,
  target: string,
  env: Record<string, string | undefined>,
): RoutingChecked | RoutingRefusal {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_ROUTING_BYTES)
    return refuse(
      `the text is ${Math.ceil(bytes / 1024)} KB; a routing file may be at most ${MAX_ROUTING_BYTES / 1024} KB`,
    );
  let config;
  try {
    config = parseRoutingConfig(text, target, env);
  } catch (err) {
    if (!(err instanceof RoutingConfigError)) throw err;
    const count = err.problems.length;
    return { ok: false, error: `${count} problem${count === 1 ? "" : "s"} in ${target}`, problems: err.problems };
  }
  // YAML reads JSON too; a .json file must stay JSON for the tools that read it as such.
  if (formatOf(target) === "json" && text.trim() !== "" && !isJson(text))
    return refuse(`${target} is a JSON file: write JSON (or point GATEWAY_CONFIG at a .yaml file for YAML)`, {
      line: 1,
      column: 1,
      path: "",
      message: "not JSON",
    });
  return { ok: true, routing: buildRouting(config, env) };
}

/**
 * Saves the operator's routing text and puts it in force on this instance: checked as at start-up,
 * refused if the file changed since `version` was read, written atomically (a temporary file renamed over
 * it), then reloaded and recorded in the audit log as `actor`'s.
 */
export async function saveRoutingText(
  rt: Runtime,
  input: { text: string; version: string; actor: string },
  place: RoutingPlace = processPlace(),
): Promise<RoutingChecked | RoutingRefusal> {
  const target = saveTarget(rt.config.routing, place);
  const file = path.resolve(place.cwd, target);
  const checked = checkRoutingText(input.text, target, place.env);
  if (!checked.ok) return checked;
  const before = readIfThere(file);
  if (versionOf(before) !== input.version)
    return refuse(`${target} changed since this page was loaded: reload the page and make your change again`);
  try {
    writeAtomically(file, input.text);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return refuse(`${target} could not be written (${reason}); the routing in force is unchanged`);
  }
  reloadRouting(rt, checked.routing);
  await recordSave(rt.db, input.actor, target, before, input.text, checked.routing);
  return checked;
}

/** The file a save writes: the one in force, else GATEWAY_CONFIG's path, else ./gateway.config.json. */
export function saveTarget(routing: Routing, place: RoutingPlace): string {
  return routing.file ?? (place.env.GATEWAY_CONFIG?.trim() || "gateway.config.json");
}

/** The text with the line endings a browser's textarea sends made the file's own (\n). */
export function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

export function versionOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function formatOf(file: string): RoutingFormat {
  return /\.ya?ml$/i.test(file) ? "yaml" : "json";
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function readIfThere(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}

function refuse(error: string, problem?: RoutingProblem): RoutingRefusal {
  return { ok: false, error, problems: problem ? [problem] : [] };
}

/**
 * Written beside the file and renamed over it: an instance starting, or reading the file, sees the old
 * text or the new, never half of one. The file keeps its permissions.
 */
function writeAtomically(file: string, text: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o644;
  try {
    fs.writeFileSync(temp, text, { mode, flag: "wx" });
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

async function recordSave(
  db: Database,
  actor: string,
  target: string,
  before: string,
  after: string,
  routing: Routing,
): Promise<void> {
  await db.prisma.auditLog.create({
    data: {
      actor,
      action: "routing.save",
      target,
      detail: {
        before: versionOf(before).slice(0, 12),
        after: versionOf(after).slice(0, 12),
        aliases: [...routing.aliases.keys()],
        deployments: [...routing.deployments.values()].filter((d) => !d.implicit).map((d) => d.name),
      },
    },
  });
}
