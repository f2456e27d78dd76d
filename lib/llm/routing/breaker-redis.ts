import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { LuaScript } from "../../gateway/runtime/limits/redis-scripts.ts";
import { ioredisScripts, type RunScript } from "../../gateway/runtime/limits/script-runners.ts";
import {
  Circuits,
  countFailure,
  DEFAULT_BREAKER_OPTIONS,
  type BreakerBoard,
  type BreakerOptions,
  type BreakerOutcome,
  type BreakerState,
  type Circuit,
} from "./breaker.ts";

/**
 * Counts one failure in the deployment's window and opens its breaker when the window is full,
 * telling every instance on the channel in the same step.
 * KEYS: failures (sorted set of times), open breakers (hash name → until).
 * ARGV: now, window ms, threshold, name, this failure's member, until if it opens, channel, message.
 * Returns the breaker's open-until (ms), or 0 while it stays closed.
 */
const COUNT_FAILURE: LuaScript = {
  name: "gwBreakerFailure",
  keys: 2,
  lua: `
local open = redis.call("HGET", KEYS[2], ARGV[4])
if open then return tonumber(open) end
local now = tonumber(ARGV[1])
redis.call("ZADD", KEYS[1], now, ARGV[5])
redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", now - tonumber(ARGV[2]))
redis.call("PEXPIRE", KEYS[1], ARGV[2])
if redis.call("ZCARD", KEYS[1]) < tonumber(ARGV[3]) then return 0 end
redis.call("HSET", KEYS[2], ARGV[4], ARGV[6])
redis.call("DEL", KEYS[1])
redis.call("PUBLISH", ARGV[7], ARGV[8])
return tonumber(ARGV[6])`,
};

/** Gives a probe's turn back only if it is still ours (it may have lapsed and gone to another instance). */
const RELEASE_PROBE: LuaScript = {
  name: "gwBreakerReleaseProbe",
  keys: 1,
  lua: `
if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end
return 0`,
};

export type RedisBreakerOptions = BreakerOptions & {
  /** Keys and channel start with this. */
  prefix: string;
  /** After another instance took the probe, ask again this often (its holder may have gone). */
  claimRetryMs: number;
  /** Redis failed: failures are then counted on this instance alone until it answers. */
  onError(err: unknown): void;
};

/** A change as published: `until` is when an open breaker lets a probe through, 0 when it closed. */
type Change = { name: string; until: number };

/**
 * Breakers shared by every instance on one Redis. Each instance keeps the open breakers in memory
 * (`allows` reads only them) and Redis tells it of every change on `<prefix>:changed`, so all stop
 * sending to a failing deployment as soon as the message arrives. Keys: `<prefix>:open` (hash name →
 * open-until ms, read whole at start and after a reconnect), `<prefix>:fails:<name>` (failure times in
 * the window, with its TTL), `<prefix>:probe:<name>` (the half-open probe's lease, SET NX PX).
 * A success on a closed breaker touches nothing; only failures and a probe's end reach Redis.
 */
export class RedisBreakerBoard implements BreakerBoard {
  private readonly circuits: Circuits;
  private readonly localFailures = new Map<string, number[]>();
  private readonly run: RunScript;
  private readonly id = randomUUID();
  private readonly channel: string;
  private readonly openKey: string;
  private readonly onMessage = (_channel: string, text: string) => this.apply(text);
  private readonly onReady = () => void this.resync().catch((err: unknown) => this.options.onError(err));

  constructor(
    private readonly client: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisBreakerOptions,
    private readonly onClose: () => Promise<void> = async () => {},
  ) {
    this.circuits = new Circuits(options.now ?? Date.now);
    this.run = ioredisScripts(client);
    this.channel = `${options.prefix}:changed`;
    this.openKey = `${options.prefix}:open`;
  }

  /** Listens for changes, then reads every open breaker once; again whenever the subscriber reconnects. */
  async start(): Promise<this> {
    this.subscriber.on("message", this.onMessage);
    await this.subscriber.subscribe(this.channel);
    await this.resync();
    this.subscriber.on("ready", this.onReady);
    return this;
  }

  allows(name: string): boolean {
    if (this.circuits.open.size === 0) return true;
    const circuit = this.circuits.open.get(name);
    if (!circuit) return true;
    const now = this.circuits.now();
    const half = this.circuits.halfOpen(name, now);
    if (!half) return false;
    if (half.probe === "ready") {
      half.probe = "out";
      return true;
    }
    if (half.probe === "none" && now >= half.nextClaimAt) this.claimProbe(name, half, now);
    return false;
  }

  record(name: string, outcome: BreakerOutcome): void {
    const circuit = this.circuits.open.get(name);
    if (!circuit) {
      if (outcome === "failure") this.countFailure(name);
      return;
    }
    const now = this.circuits.now();
    // Answers from requests sent before the breaker opened change nothing while it cools down.
    if (now < circuit.until) return;
    if (outcome === "success") {
      this.circuits.setClosed(name);
      this.publish(this.client.multi().hdel(this.openKey, name).del(this.failsKey(name), this.probeKey(name)), {
        name,
        until: 0,
      });
    } else if (outcome === "failure") {
      const until = now + this.options.cooldownMs;
      this.circuits.setOpen(name, until);
      this.publish(this.client.multi().hset(this.openKey, name, until).del(this.probeKey(name)), { name, until });
    } else if (circuit.probe === "out") {
      circuit.probe = "none";
      circuit.nextClaimAt = 0;
      this.run(RELEASE_PROBE, [this.probeKey(name)], [this.id]).catch(this.options.onError);
    }
  }

  state(name: string): BreakerState {
    return this.circuits.state(name);
  }

  async close(): Promise<void> {
    this.subscriber.off("ready", this.onReady);
    this.subscriber.off("message", this.onMessage);
    await this.subscriber.unsubscribe(this.channel).catch(() => {});
    await this.onClose();
  }

  private countFailure(name: string): void {
    const now = this.circuits.now();
    const until = now + this.options.cooldownMs;
    const message = JSON.stringify({ name, until } satisfies Change);
    const { windowMs, threshold } = this.options;
    this.run(
      COUNT_FAILURE,
      [this.failsKey(name), this.openKey],
      [now, windowMs, threshold, name, `${now}:${this.id}:${Math.random()}`, until, this.channel, message],
    ).then(
      (reply) => {
        const openUntil = Number(reply);
        if (openUntil > 0) this.circuits.setOpen(name, openUntil);
      },
      (err: unknown) => {
        this.options.onError(err);
        let times = this.localFailures.get(name);
        if (!times) this.localFailures.set(name, (times = []));
        if (countFailure(times, now, this.options)) {
          this.localFailures.delete(name);
          this.circuits.setOpen(name, until);
        }
      },
    );
  }

  private claimProbe(name: string, circuit: Circuit, now: number): void {
    circuit.probe = "claiming";
    const { probeTimeoutMs, claimRetryMs } = this.options;
    this.client.set(this.probeKey(name), this.id, "PX", probeTimeoutMs, "NX").then(
      (won) => {
        // The breaker changed meanwhile (closed, or opened again): this claim no longer applies.
        if (this.circuits.open.get(name) !== circuit || circuit.probe !== "claiming") return;
        if (won === "OK") {
          circuit.probe = "ready";
          circuit.probeUntil = now + probeTimeoutMs;
        } else {
          circuit.probe = "none";
          circuit.nextClaimAt = this.circuits.now() + claimRetryMs;
        }
      },
      (err: unknown) => {
        if (circuit.probe === "claiming") {
          circuit.probe = "none";
          circuit.nextClaimAt = this.circuits.now() + claimRetryMs;
        }
        this.options.onError(err);
      },
    );
  }

  private publish(transaction: ReturnType<Redis["multi"]>, change: Change): void {
    transaction
      .publish(this.channel, JSON.stringify(change))
      .exec()
      .catch((err: unknown) => this.options.onError(err));
  }

  private apply(text: string): void {
    let change: Change;
    try {
      change = JSON.parse(text) as Change;
    } catch {
      return;
    }
    if (typeof change?.name !== "string" || typeof change.until !== "number") return;
    if (change.until === 0) this.circuits.setClosed(change.name);
    else this.circuits.setOpen(change.name, change.until);
  }

  private async resync(): Promise<void> {
    const open = await this.client.hgetall(this.openKey);
    for (const name of this.circuits.open.keys()) if (!(name in open)) this.circuits.setClosed(name);
    for (const [name, until] of Object.entries(open)) this.circuits.setOpen(name, Number(until));
  }

  private failsKey(name: string): string {
    return `${this.options.prefix}:fails:${name}`;
  }

  private probeKey(name: string): string {
    return `${this.options.prefix}:probe:${name}`;
  }
}

/** A shared board on its own two connections (commands, and the subscription), closed with it. */
export async function connectRedisBreakers(
  url: string,
  options: Partial<RedisBreakerOptions> & Pick<RedisBreakerOptions, "onError">,
): Promise<RedisBreakerBoard> {
  const { connectRedis } = await import("../../gateway/runtime/redis.ts");
  const client = connectRedis(url, "gateway-breakers");
  const subscriber = connectRedis(url, "gateway-breaker-changes");
  client.on("error", options.onError);
  subscriber.on("error", options.onError);
  const quit = async () => void (await Promise.allSettled([client.quit(), subscriber.quit()]));
  const board = new RedisBreakerBoard(
    client,
    subscriber,
    { ...DEFAULT_BREAKER_OPTIONS, prefix: "gw:breaker", claimRetryMs: 1_000, ...options },
    quit,
  );
  try {
    return await board.start();
  } catch (err) {
    await quit();
    throw err;
  }
}
