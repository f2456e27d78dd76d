import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/backends.ts";
import { DirectoryLockedError, lockDirectory } from "./directory-lock.ts";

describe("lockDirectory", () => {
  const root = tempDir("lock");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const hint = "reach it instead.";

  it("holds the directory until released, refusing a second taker", () => {
    const dir = path.join(root, "db");
    const lock = lockDirectory(dir, hint);
    expect(JSON.parse(fs.readFileSync(`${dir}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
    expect(() => lockDirectory(dir, hint)).toThrow(DirectoryLockedError);
    expect(() => lockDirectory(dir, hint)).toThrow(/this process already holds it.*reach it instead/);
    lock.release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    lockDirectory(dir, hint).release();
  });

  it("names a live holder's pid, and takes over a lock left by a dead process", async () => {
    const dir = path.join(root, "other");
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      fs.writeFileSync(`${dir}.lock`, JSON.stringify({ pid: child.pid, since: "2026-01-01T00:00:00.000Z" }));
      expect(() => lockDirectory(dir, hint)).toThrow(
        new RegExp(`process ${child.pid} \\(since 2026-01-01T00:00:00.000Z\\) holds it`),
      );
    } finally {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
    const lock = lockDirectory(dir, hint);
    expect(JSON.parse(fs.readFileSync(lock.file, "utf8")).pid).toBe(process.pid);
    lock.release();
  });

  it("treats a lock with our pid that this process never took as stale (a restarted container)", () => {
    const dir = path.join(root, "restarted");
    fs.writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, since: "2026-01-01T00:00:00.000Z" }));
    lockDirectory(dir, hint).release();
  });
});
