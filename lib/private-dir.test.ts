import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../test/support/backends.ts";
import { makePrivateDir } from "./private-dir.ts";

describe("makePrivateDir", () => {
  const root = tempDir("private");
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const mode = (dir: string) => fs.statSync(dir).mode & 0o777;

  it("creates the directory and its missing parents with mode 0700", () => {
    const dir = path.join(root, "a", "b");
    makePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(root, "a"))).toBe(0o700);
  });

  it("tightens an existing directory that others could read", () => {
    const dir = path.join(root, "open");
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    makePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });
});
