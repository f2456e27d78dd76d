import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { loadRouting } from "./deployments.ts";
import { watchRoutingFile } from "./watch-file.ts";

const ENV = { OPENAI_API_KEY: "sk-test" };
const file = (alias: string) => JSON.stringify({ aliases: { [alias]: { deployments: ["openai/gpt-4.1"] } } });

const stops: (() => void)[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A runtime's config, a logger that keeps what it was told, and close hooks never run. */
function watched(cwd: string, env: Record<string, string>) {
  const warnings: unknown[] = [];
  const rt = {
    config: { ...loadConfig({}), routing: loadRouting(env, cwd) },
    logger: { info: () => {}, warn: (fields: unknown) => warnings.push(fields) },
    onClose: () => {},
  } as unknown as Runtime;
  stops.push(watchRoutingFile(rt, { env, cwd, intervalMs: 20, settleMs: 20 }));
  return { rt, warnings };
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "routing-watch-"));
  dirs.push(dir);
  return dir;
}

const aliases = (rt: Runtime) => [...rt.config.routing.aliases.keys()];

describe("watchRoutingFile", () => {
  it("puts a changed file in force, keeps the routing in force when the change does not check, and takes the next good one", async () => {
    const cwd = tempDir();
    const target = path.join(cwd, "gateway.config.json");
    fs.writeFileSync(target, file("smart"));
    const { rt, warnings } = watched(cwd, ENV);
    expect(aliases(rt)).toEqual(["smart"]);

    fs.writeFileSync(target, file("clever"));
    await expect.poll(() => aliases(rt), { timeout: 10_000 }).toEqual(["clever"]);

    fs.writeFileSync(target, '{"aliases": {"broken": {"deployments": ["nowhere"]}}}');
    // One write can reach the watcher as two events (the file emptied, then filled) on a busy machine:
    // each reading that does not check is a warning, and the last one names the problem.
    await expect
      .poll(() => JSON.stringify(warnings.at(-1) ?? null), { timeout: 10_000 })
      .toContain("gateway.config.json:1:41 aliases.broken.deployments[0]: unknown deployment");
    expect(aliases(rt)).toEqual(["clever"]);

    // Renamed over it, as the admin area saves.
    fs.writeFileSync(path.join(cwd, "next.tmp"), file("wise"));
    fs.renameSync(path.join(cwd, "next.tmp"), target);
    await expect.poll(() => aliases(rt), { timeout: 10_000 }).toEqual(["wise"]);
  });

  it("started without a file, picks up the first one written where a save would put it", async () => {
    const cwd = tempDir();
    const { rt } = watched(cwd, ENV);
    expect(rt.config.routing.file).toBeUndefined();
    expect(aliases(rt)).toEqual([]);
    fs.writeFileSync(path.join(cwd, "gateway.config.json"), file("smart"));
    await expect.poll(() => aliases(rt), { timeout: 10_000 }).toEqual(["smart"]);
    expect(rt.config.routing.file).toBe("gateway.config.json");
  });

  it("with GATEWAY_CONFIG naming a YAML file, watches that one", async () => {
    const cwd = tempDir();
    const env = { ...ENV, GATEWAY_CONFIG: "conf/routing.yaml" };
    fs.mkdirSync(path.join(cwd, "conf"));
    fs.writeFileSync(path.join(cwd, "conf/routing.yaml"), "aliases: {}\n");
    const { rt } = watched(cwd, env);
    expect(rt.config.routing.file).toBe("conf/routing.yaml");
    fs.writeFileSync(path.join(cwd, "conf/routing.yaml"), "aliases:\n  smart: {deployments: [openai/gpt-4.1]}\n");
    await expect.poll(() => aliases(rt), { timeout: 10_000 }).toEqual(["smart"]);
  });
});
