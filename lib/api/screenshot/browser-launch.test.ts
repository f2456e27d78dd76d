import { describe, expect, it } from "vitest";
import { chromiumArgs, sandboxFallbackLauncher } from "./browser-launch.ts";

describe("Chromium launch for screenshots", () => {
  it("always cuts Chromium off the network (dead proxy, loopback included, no names, no QUIC, no WebRTC UDP), and adds --no-sandbox only without the sandbox", () => {
    for (const sandbox of [true, false]) {
      expect(chromiumArgs(sandbox)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^--proxy-server=http:\/\/[^/]+\.invalid:\d+$/),
          "--proxy-bypass-list=<-loopback>",
          "--host-resolver-rules=MAP * ~NOTFOUND",
          "--disable-quic",
          "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
          "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        ]),
      );
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
