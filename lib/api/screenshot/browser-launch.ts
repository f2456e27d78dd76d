const COMMON_ARGS = [
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-dev-shm-usage",
  // Every request the gateway's route sees it fetches itself and fulfils, so Chromium's own network
  // stack needs no network at all. Some requests never reach the route (a SharedWorker's fetch, a
  // speculation-rules prefetch, a popup's first navigation; WebTransport fails today only because
  // requests are intercepted); these flags make them fail instead of connecting. The proxy is a name that never resolves (RFC 6761 .invalid),
  // and `<-loopback>` drops Chromium's implicit bypass, without which 127.0.0.1 and localhost would
  // still be reached directly.
  "--proxy-server=http://no-direct-network.invalid:9",
  "--proxy-bypass-list=<-loopback>",
  // A second, independent layer: no name (nor IP literal) resolves, which also stops DNS lookups
  // (dns-prefetch, the proxy's own name) from carrying data out.
  "--host-resolver-rules=MAP * ~NOTFOUND",
  // QUIC is UDP, which an HTTP proxy does not carry: off, so no request can take it around the proxy.
  "--disable-quic",
  // WebRTC's UDP goes around proxies; "non-proxied UDP disabled" with a dead proxy means no UDP at all.
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
