import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/support/backends.ts";
import { initialiseInChild, isInitialised } from "./pglite-init.ts";

describe("initialising an embedded database in a child process", () => {
  it("runs initdb for a fresh directory and leaves an initialised one alone", async () => {
    const dir = path.join(tempDir(), "pglite");
    expect(isInitialised(dir)).toBe(false);
    await initialiseInChild(dir);
    expect(isInitialised(dir)).toBe(true);
    const version = fs.statSync(path.join(dir, "PG_VERSION")).mtimeMs;
    await initialiseInChild(dir);
    expect(fs.statSync(path.join(dir, "PG_VERSION")).mtimeMs).toBe(version);
  });

  it("reports why initdb failed instead of opening a half-made database", async () => {
    const file = path.join(tempDir(), "not-a-directory");
    fs.writeFileSync(file, "x");
    await expect(initialiseInChild(file)).rejects.toThrow(
      /initialising the embedded database in .*not-a-directory failed: \S/,
    );
  });
});
