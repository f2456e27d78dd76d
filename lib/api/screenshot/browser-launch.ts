const COMMON_ARGS = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
  // Page requests are all fetched by the gateway, but WebRTC's UDP would go straight out (and find the
  // host's private addresses); with no proxy configured, "non-proxied UDP disabled" means no UDP at all.
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** Chromium's flags; without the sandbox, --no-sandbox is added (Playwright adds it too unless told otherwise). */
export function chromiumArgs(sandbox: boolean): string[] {
  return sandbox ? [...COMMON_ARGS] : ["--no-sandbox", ...COMMON_ARGS];
}

/**
 * Launches with Chromium's sandbox first, since the pages are hostile. Where the kernel cannot give it
 * one (running as root, or no user namespaces) the launch fails; then it launches without, once, and
 * says so in the log. The outcome is remembered so later relaunches do not pay for the failed try.
 */
export function sandboxFallbackLauncher<B>(
  launch: (sandbox: boolean) => Promise<B>,
  warn: (message: string, err: unknown) => void,
): () => Promise<B> {
  let sandboxWorks: boolean | undefined;
  return async () => {
    if (sandboxWorks === false) return launch(false);
    try {
      const browser = await launch(true);
      sandboxWorks = true;
      return browser;
    } catch (err) {
      if (sandboxWorks) throw err;
      sandboxWorks = false;
      warn(
        "screenshots: Chromium's sandbox is unavailable here (running as root or without user namespaces); running it with --no-sandbox",
        err,
      );
      return launch(false);
    }
  };
}
