import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { parseRoutingConfig, RoutingConfigError } from "./config.ts";
import { buildRouting } from "./deployments.ts";
import { reloadRouting } from "./runtime-router.ts";

export type RoutingWatchOptions = {
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** How often the file's stat is read: polling also sees a change made on another host of a shared volume. */
  intervalMs?: number;
  /** How long the file must stay unchanged before it is read: an editor's write in several steps is read once. */
  settleMs?: number;
};

/**
 * Puts the routing file in force whenever it changes: the one in force, else the one a save would write
 * (GATEWAY_CONFIG's path, else ./gateway.config.json), so an instance started without a file picks up the
 * first one written. Another instance's save in the admin area, or the operator's own editor, reaches
 * every instance sharing the file this way. A file that does not check (or is gone) is logged and the
 * routing in force is kept, as a bad file at start stops the start rather than running on it.
 * Returns the function that stops watching; it also stops when the runtime closes.
 */
export function watchRoutingFile(
  rt: Pick<Runtime, "config" | "logger" | "onClose">,
  options: RoutingWatchOptions = {},
): () => void {
  const env = options.env ?? process.env;
  const named = rt.config.routing.file ?? (env.GATEWAY_CONFIG?.trim() || "gateway.config.json");
  const file = path.resolve(options.cwd ?? process.cwd(), named);
  // The file as the watch starts, stat first: a write between the two is seen as a change, never missed.
  let seen = statOf(file);
  let applied = versionOf(readIfThere(file) ?? "");
  let timer: NodeJS.Timeout | undefined;

  const reload = () => {
    timer = undefined;
    try {
      const text = readIfThere(file);
      if (text === undefined) {
        rt.logger.warn({ file }, "routing file removed; the routing in force is kept until it is written again");
        return;
      }
      const version = versionOf(text);
      if (version === applied) return;
      const routing = buildRouting(parseRoutingConfig(text, named, env), env);
      applied = version;
      reloadRouting(rt, routing);
      rt.logger.info({ file, aliases: routing.aliases.size }, "routing file changed: reloaded");
    } catch (err) {
      // Read on a timer: an error here must not end the process, and the routing in force still works.
      const problems = err instanceof RoutingConfigError ? err.message : undefined;
      rt.logger.warn(
        { file, ...(problems ? { problems } : { err }) },
        "routing file changed but cannot be used; the routing in force is kept",
      );
    }
  };
  const poll = setInterval(() => {
    fs.stat(file, (err, now) => {
      const stat = err ? undefined : now;
      if (sameStat(stat, seen)) return;
      seen = stat;
      clearTimeout(timer);
      timer = setTimeout(reload, options.settleMs ?? 200);
      timer.unref();
    });
  }, options.intervalMs ?? 2000);
  poll.unref();
  const stop = () => {
    clearInterval(poll);
    clearTimeout(timer);
  };
  rt.onClose(async () => stop());
  return stop;
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

function sameStat(a: fs.Stats | undefined, b: fs.Stats | undefined): boolean {
  if (!a || !b) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

function versionOf(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function readIfThere(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
