import { bucketOf, carriedOver, decide, decideLevels, decideTokens, peekState, type LevelCounts } from "./decision.ts";
import { ADMIT, ADMIT_LEVELS, FORGIVE, PEEK, RELEASE, RESERVE_TOKENS, SETTLE_TOKENS } from "./redis-scripts.ts";
import type { RunScript } from "./script-runners.ts";
import {
  releaseOnce,
  WINDOW_MS,
  type LevelCheck,
  type LimitStore,
  type Limits,
  type StoreDecision,
  type TokenDecision,
  type TokenSubject,
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
 * and `<prefix>:concurrency:<key>`; each has a TTL. A level above the key counts under its own id in the
 * same layout (`<prefix>:minute:team:<id>:<minute>`), in the same script call as the key.
 */
export class RedisLimitStore implements LimitStore {
  constructor(
    private readonly run: RunScript,
    private readonly prefix = "gw:rl",
    private readonly onClose: () => Promise<void> = async () => {},
    private readonly now: () => number = Date.now,
  ) {}

  async admit(keyId: string, limits: Limits, levels?: readonly LevelCheck[]): Promise<StoreDecision> {
    const now = this.now();
    const minute = bucketOf("minute", now);
    const day = bucketOf("day", now);
    const dayTtl = (day + 1) * WINDOW_MS.day - now + DAY_SLACK_MS;
    const slotKey = this.key("concurrency", keyId);
    const minuteKey = this.key("minute", keyId, minute);
    const keys = [minuteKey, this.key("minute", keyId, minute - 1), this.key("day", keyId, day), slotKey];
    const args: Array<string | number> = [
      now,
      limits.minute,
      limits.day,
      limits.concurrency,
      WINDOW_MS.minute,
      dayTtl,
      SLOT_TTL_SECONDS,
    ];
    if (levels?.length) args.push(this.prefix, minute, minute - 1, day, levelSpec(levels));
    const reply = ((await this.run(levels?.length ? ADMIT_LEVELS : ADMIT, keys, args)) as number[]).map(Number);
    const counts = { minute: reply[0]!, previousMinute: reply[1]!, day: reply[2]!, inUse: reply[3]! };
    const decision = levels?.length
      ? decideLevels(counts, limits, levels, countsIn(reply, 4, levels.length), now)
      : decide(counts, limits, now);
    if (decision.refusedBy !== null) return { ...decision, refusedBy: decision.refusedBy };
    if (reply.at(-1) !== 1) throw new Error("limit script and decide() disagree; keep them in step");
    return {
      ...decision,
      refusedBy: null,
      release: releaseOnce(async () => void (await this.run(RELEASE, [slotKey], []))),
      forgiveMinute: releaseOnce(async () => {
        const minuteKeys = [minuteKey, ...(levels ?? []).map((l) => this.key("minute", l.id, minute))];
        await Promise.all(minuteKeys.map((k) => this.run(FORGIVE, [k], [])));
      }),
    };
  }

  async reserveTokens(subjects: readonly TokenSubject[], tokens: number): Promise<TokenDecision> {
    const now = this.now();
    const minute = bucketOf("minute", now);
    const day = bucketOf("day", now);
    const dayTtl = (day + 1) * WINDOW_MS.day - now + DAY_SLACK_MS;
    const spec = levelSpec(subjects);
    const args = [now, tokens, WINDOW_MS.minute, dayTtl, this.prefix, minute, minute - 1, day, spec];
    const reply = ((await this.run(RESERVE_TOKENS, [], args)) as number[]).map(Number);
    const verdict = decideTokens(countsIn(reply, 0, subjects.length), subjects, tokens, now);
    if (verdict.refusedBy !== null)
      return { states: verdict.states, refusedBy: verdict.refusedBy, refusedAt: verdict.refusedAt };
    if (reply.at(-1) !== 1) throw new Error("token script and decideTokens() disagree; keep them in step");
    return {
      states: verdict.states,
      refusedBy: null,
      settle: releaseOnce(async (actual: number) => {
        if (actual !== tokens) await this.run(SETTLE_TOKENS, [], [actual - tokens, this.prefix, minute, day, spec]);
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

const specs = new WeakMap<readonly LevelCheck[], string>();

/**
 * Levels or token subjects as the scripts take them, `id|minute|day;…` (-1: no limit there), made once
 * per list: a key's lists are built once and kept (LevelDirectory.chainOf), so a request only looks it up.
 */
function levelSpec(list: readonly LevelCheck[]): string {
  let spec = specs.get(list);
  if (spec === undefined) {
    spec = list.map(({ id, limits }) => `${id}|${limits.minute ?? -1}|${limits.day ?? -1}`).join(";");
    specs.set(list, spec);
  }
  return spec;
}

/** `n` subjects' counts (minute, previous minute, day) from a script's reply, from `offset` on. */
function countsIn(reply: readonly number[], offset: number, n: number): LevelCounts[] {
  return Array.from({ length: n }, (_, i) => ({
    minute: reply[offset + i * 3]!,
    previousMinute: reply[offset + i * 3 + 1]!,
    day: reply[offset + i * 3 + 2]!,
  }));
}
