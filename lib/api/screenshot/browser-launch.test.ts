import { describe, expect, it } from "vitest";
import { chromiumArgs, sandboxFallbackLauncher } from "./browser-launch.ts";

describe("Chromium launch for screenshots", () => {
  it("always disables non-proxied WebRTC UDP, and adds --no-sandbox only without the sandbox", () => {
    for (const sandbox of [true, false]) {
      expect(chromiumArgs(sandbox)).toContain("--force-webrtc-ip-handling-policy=disable_non_proxied_udp");
      expect(chromiumArgs(sandbox)).toContain("--webrtc-ip-handling-policy=disable_non_proxied_udp");
    }
    expect(chromiumArgs(true)).not.toContain("--no-sandbox");
    expect(chromiumArgs(false)).toContain("--no-sandbox");
  });

  it("uses the sandbox where it launches", async () => {
    const tries: boolean[] = [];
    const warnings: string[] = [];
    const launch = sandboxFallbackLauncher(
      async (sandbox) => (tries.push(sandbox), `browser(${sandbox})`),
      (m) => warnings.push(m),
    );
    expect(await launch()).toBe("browser(true)");
    expect(tries).toEqual([true]);
    expect(warnings).toEqual([]);
  });

  it("falls back once, with a log line, where the sandbox cannot start, and does not retry it", async () => {
    const tries: boolean[] = [];
    const warnings: string[] = [];
    const launch = sandboxFallbackLauncher(
      async (sandbox) => {
        tries.push(sandbox);
        if (sandbox) throw new Error("Running as root without --no-sandbox is not supported");
        return "unsandboxed";
      },
      (m) => warnings.push(m),
    );
    expect(await launch()).toBe("unsandboxed");
    expect(await launch()).toBe("unsandboxed");
    expect(tries).toEqual([true, false, false]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/--no-sandbox/);
  });
});
