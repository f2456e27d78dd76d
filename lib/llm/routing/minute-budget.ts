/** A deployment's own requests and tokens per minute, as the operator declared them (`rpm`, `tpm`). */
export type MinuteLimits = { rpm?: number; tpm?: number };

type Window = { minute: number; requests: number; tokens: number };

/**
 * Counts each limited deployment's requests and tokens in the current clock minute, on this instance,
 * so the router passes a deployment by once it has had its share (a provider's own 429 would cost a
 * round trip and, repeated, open its breaker). Fixed minute windows: one counter pair per deployment,
 * no timestamps kept. Only deployments with a limit are counted; the rest cost one Map miss.
 */
export class MinuteBudget {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Why the deployment must be passed by this minute ("over-rpm", "over-tpm"), or undefined. */
  refusal(name: string, limits: MinuteLimits): "over-rpm" | "over-tpm" | undefined {
    const w = this.window(name);
    if (limits.rpm !== undefined && w.requests >= limits.rpm) return "over-rpm";
    if (limits.tpm !== undefined && w.tokens >= limits.tpm) return "over-tpm";
    return undefined;
  }

  /** One request sent to the deployment. */
  request(name: string): void {
    this.window(name).requests++;
  }

  /** Tokens the deployment reported for an answer (prompt and completion). */
  tokens(name: string, count: number): void {
    if (count > 0) this.window(name).tokens += count;
  }

  /** Ms until the current minute ends: when a passed-by deployment may be asked again. */
  msToNextMinute(): number {
    return 60_000 - (this.now() % 60_000);
  }

  private window(name: string): Window {
    const minute = Math.floor(this.now() / 60_000);
    let w = this.windows.get(name);
    if (!w) this.windows.set(name, (w = { minute, requests: 0, tokens: 0 }));
    else if (w.minute !== minute) {
      w.minute = minute;
      w.requests = 0;
      w.tokens = 0;
    }
    return w;
  }
}
