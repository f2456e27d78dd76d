import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findChromium, NO_CHROMIUM } from "./chromium-path.ts";

describe("findChromium", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chromium-path-"));
  const executable = (name: string) => {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "#!/bin/sh\n", { mode: 0o755 });
    return file;
  };
  const nowhere = { path: "", places: [], playwright: () => undefined };
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("takes CHROMIUM_PATH as given, and names it when it is not there", () => {
    const mine = executable("mine/chrome");
    expect(findChromium(mine, nowhere)).toBe(mine);
    expect(() => findChromium(path.join(dir, "missing"), nowhere)).toThrow(/^Chromium not found at CHROMIUM_PATH=/);
  });

  it.runIf(process.platform !== "win32")(
    "looks on PATH first, then in the usual places, then for Playwright's own",
    () => {
      const onPath = executable("bin/chromium-browser");
      const placed = executable("opt/chrome");
      const fromPlaywright = executable("playwright/chrome");
      fs.writeFileSync(path.join(dir, "bin/chromium"), "not executable", { mode: 0o644 });
      const search = { path: `/nonexistent${path.delimiter}${path.join(dir, "bin")}`, places: [placed] };
      expect(findChromium(undefined, { ...search, playwright: () => fromPlaywright })).toBe(onPath);
      expect(findChromium(undefined, { ...search, path: "", playwright: () => fromPlaywright })).toBe(placed);
      expect(findChromium(undefined, { path: "", places: [], playwright: () => fromPlaywright })).toBe(fromPlaywright);
    },
  );

  it("says in one line what to install when there is none", () => {
    expect(() => findChromium(undefined, nowhere)).toThrow(NO_CHROMIUM);
    expect(NO_CHROMIUM).not.toContain("\n");
    expect(NO_CHROMIUM).toMatch(/apt-get install chromium.*npx playwright install chromium/);
  });
});
