import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import type { ServerProcess } from "../test/support/server-process.ts";

/** What the console specs share: signing in without SMTP, the accessibility check, kept screenshots. */

const SHOTS = path.join("test-results", "screenshots");

/** Signs in through the email form; with no SMTP configured the server logs the link, which we follow. */
export async function signIn(page: Page, server: ServerProcess, email: string): Promise<void> {
  await page.goto(`${server.url}/api/auth/signin`);
  await page.fill('input[name="email"]', email);
  await page.click('button[type="submit"]');
  await page.waitForURL(/verify-request/);
  let link: string | undefined;
  for (let i = 0; i < 50 && !link; i++) {
    for (const line of server.output().split("\n")) {
      if (!line.includes("NO SMTP CONFIGURED")) continue;
      const entry = JSON.parse(line) as { email?: string; signInLink?: string };
      if (entry.email === email) link = entry.signInLink;
    }
    if (!link) await page.waitForTimeout(100);
  }
  if (!link) throw new Error(`no sign-in link logged for ${email}`);
  await page.goto(link);
}

export async function expectAccessible(page: Page, exclude: string[] = []): Promise<void> {
  await expect(page).toHaveTitle(/\S/);
  let axe = new AxeBuilder({ page });
  for (const selector of exclude) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/**
 * The page as it stands checked in the light and the dark scheme: axe with no serious or critical
 * violation in each, and a screenshot of each (`<name>-light`, `<name>-dark`); left in the light scheme.
 */
export async function expectAccessibleInBothSchemes(
  page: Page,
  name: string,
  exclude: string[] = [],
  shot: ShotOptions = {},
): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectAccessible(page, exclude);
    await screenshot(page, `${name}-${colorScheme}`, shot);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** Whether the page scrolls sideways (a layout wider than the viewport, as at 390 px it must not be). */
export async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

export interface ShotOptions {
  /**
   * The visible viewport only. For a page many screens tall (the API reference lists every operation), a
   * full-page capture has taken Chromium past two minutes on a loaded 2-core machine.
   */
  viewportOnly?: boolean;
}

/** A screenshot (full-page unless told otherwise) kept in test-results/screenshots and attached to the HTML report. */
export async function screenshot(page: Page, name: string, { viewportOnly = false }: ShotOptions = {}): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: !viewportOnly });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}
