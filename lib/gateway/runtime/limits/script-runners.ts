import { createHash } from "node:crypto";
import type { Redis as IORedis } from "ioredis";
import type { LuaScript } from "./redis-scripts.ts";

/** Runs a script by SHA, sending its text only when the server does not have it cached. */
export type RunScript = (script: LuaScript, keys: string[], args: Array<string | number>) => Promise<unknown>;

type ScriptCommand = (...keysAndArgs: Array<string | number>) => Promise<unknown>;

/** On ioredis, `defineCommand` does the EVALSHA and the EVAL fallback on NOSCRIPT. */
export function ioredisScripts(client: IORedis): RunScript {
  const commands = new Map<string, ScriptCommand>();
  return (script, keys, args) => {
    let command = commands.get(script.name);
    if (!command) {
      client.defineCommand(script.name, { numberOfKeys: script.keys, lua: script.lua });
      const defined = (client as unknown as Record<string, ScriptCommand>)[script.name]!;
      command = defined.bind(client);
      commands.set(script.name, command);
    }
    return command(...keys, ...args);
  };
}

/** The slice of @upstash/redis (REST) the limits use: EVALSHA and EVAL. */
export type EvalClient = {
  evalsha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
};

/** On Upstash, EVALSHA first and the script's text only when the server answers NOSCRIPT. */
export function evalScripts(client: EvalClient): RunScript {
  const shas = new Map<string, string>();
  return async (script, keys, args) => {
    let sha = shas.get(script.name);
    if (!sha) {
      sha = createHash("sha1").update(script.lua).digest("hex");
      shas.set(script.name, sha);
    }
    const argv = args.map(String);
    try {
      return await client.evalsha(sha, keys, argv);
    } catch (err) {
      if (!String(err).includes("NOSCRIPT")) throw err;
      return client.eval(script.lua, keys, argv);
    }
  };
}
