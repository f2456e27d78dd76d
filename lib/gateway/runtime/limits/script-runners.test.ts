import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { RELEASE } from "./redis-scripts.ts";
import { evalScripts, type EvalClient } from "./script-runners.ts";

describe("evalScripts (Upstash REST)", () => {
  it("runs by SHA, sends the text once on NOSCRIPT, then runs by SHA again", async () => {
    const cached = new Set<string>();
    const calls: string[] = [];
    const client: EvalClient = {
      evalsha: async (sha) => {
        calls.push("evalsha");
        if (!cached.has(sha)) throw new Error("NOSCRIPT No matching script. Please use EVAL.");
        return 0;
      },
      eval: async (script, keys, args) => {
        calls.push("eval");
        cached.add(createHash("sha1").update(script).digest("hex"));
        expect(keys).toEqual(["gw:rl:concurrency:k"]);
        expect(args).toEqual(["1"]);
        return 0;
      },
    };
    const run = evalScripts(client);
    await run(RELEASE, ["gw:rl:concurrency:k"], [1]);
    await run(RELEASE, ["gw:rl:concurrency:k"], [1]);
    expect(calls).toEqual(["evalsha", "eval", "evalsha"]);
  });

  it("passes other errors on", async () => {
    const fail = async () => {
      throw new Error("WRONGTYPE");
    };
    await expect(evalScripts({ evalsha: fail, eval: fail })(RELEASE, ["k"], [])).rejects.toThrow("WRONGTYPE");
  });
});
