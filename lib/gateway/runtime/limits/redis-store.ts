import { bucketOf, carriedOver, decide, decideTokens, peekState } from "./decision.ts";
import { ADMIT, FORGIVE, PEEK, RELEASE, RESERVE_TOKENS, SETTLE_TOKENS } from "./redis-scripts.ts";
import type { RunScript } from "./script-runners.ts";
import {
  releaseOnce,
  WINDOW_MS,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type TokenDecision,
  type TokenLimits,
  type WindowKind,
  type WindowState,
} from "./windows.ts";

// Frees slots an instance took and never gave back (it crashed); every admission renews it.
const SLOT_TTL_SECONDS = 600;
// A day bucket outlives its UTC day by this much, so clocks a little apart still find it.
const DAY_SLACK_MS = 60_000;

/**
 * Limits shared by every instance that points at the same Redis: one script call checks and
 * counts the minute, day and concurrency windows together. Keys are `<prefix>:minute:<key>:<minute>`,
 * `<prefix>:day:<key>:<day>` (the layout @upstash/ratelimit used, so counts survive the switch)
 * and `<prefix>:concurrency:<key>`; each has a TTL.
 */
export class RedisLimitStore implements LimitStore {
  constructor(
    private readonly run: RunScript,
    private readonly prefix = "gw:rl",
    private readonly onClose: () => Promise<void> = async () => {},
    private readonly now: () => number = Date.now,
  ) {}

  async admit(keyId: string, limits: Limits): Promise<StoreDecision> {
    const now = this.now();
    const minute = bucketOf("minute", now);
    const day = bucketOf("day", now);
    const dayTtl = (day + 1) * WINDOW_MS.day - now + DAY_SLACK_MS;
    const slotKey = this.key("concurrency", keyId);
    const minuteKey = this.key("minute", keyId, minute);
    const reply = (await this.run(
      ADMIT,
      [minuteKey, this.key("minute", keyId, minute - 1), this.key("day", keyId, day), slotKey],
      [now, limits.minute, limits.day, limits.concurrency, WINDOW_MS.minute, dayTtl, SLOT_TTL_SECONDS],
    )) as number[];
    const [m, previous, d, inUse, counted] = reply.map(Number);
    const decision = decide({ minute: m!, previousMinute: previous!, day: d!, inUse: inUse! }, limits, now);
    if (decision.refusedBy !== null) return { ...decision, refusedBy: decision.refusedBy };
    if (counted !== 1) throw new Error("limit script and decide() disagree; keep them in step");
    return {
      ...decision,
      refusedBy: null,
      release: releaseOnce(async () => void (await this.run(RELEASE, [slotKey], []))),
      forgiveMinute: releaseOnce(async () => void (await this.run(FORGIVE, [minuteKey], []))),
    };
  }

  async reserveTokens(keyId: string, limits: TokenLimits, tokens: number): Promise<TokenDecision> {
    const now = this.now();
    const minute = bucketOf("minute", now);
    const day = bucketOf("day", now);
    const dayTtl = (day + 1) * WINDOW_MS.day - now + DAY_SLACK_MS;
    const minuteKey = this.key("tokens-minute", keyId, minute);
    const dayKey = this.key("tokens-day", keyId, day);
    const reply = (await this.run(
      RESERVE_TOKENS,
      [minuteKey, this.key("tokens-minute", keyId, minute - 1), dayKey],
      [now, limits.minute ?? -1, limits.day ?? -1, tokens, WINDOW_MS.minute, dayTtl],
    )) as number[];
    const [m, previous, d, counted] = reply.map(Number);
    const verdict = decideTokens({ minute: m!, previousMinute: previous!, day: d! }, limits, tokens, now);
    if (verdict.refusedBy !== null) return { ...verdict, refusedBy: verdict.refusedBy };
    if (counted !== 1) throw new Error("token script and decideTokens() disagree; keep them in step");
    return {
      ...verdict,
      refusedBy: null,
      settle: releaseOnce(async (actual: number) => {
        if (actual !== tokens) await this.run(SETTLE_TOKENS, [minuteKey, dayKey], [actual - tokens]);
      }),
    };
  }

  async peek(keyId: string, kind: WindowKind, limit: number): Promise<WindowState> {
    const now = this.now();
    const bucket = bucketOf(kind, now);
    const [count, previous] = (
      (await this.run(PEEK, [this.key(kind, keyId, bucket), this.key(kind, keyId, bucket - 1)], [])) as number[]
    ).map(Number);
    const used = kind === "day" ? count! : count! + carriedOver(previous!, now);
    return peekState(kind, limit, used, now);
  }

  async close(): Promise<void> {
    await this.onClose();
  }

  private key(
    kind: WindowKind | "concurrency" | "tokens-minute" | "tokens-day",
    keyId: string,
    bucket?: number,
  ): string {
    return bucket === undefined ? `${this.prefix}:${kind}:${keyId}` : `${this.prefix}:${kind}:${keyId}:${bucket}`;
  }
}
