import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectRedis } from "../../gateway/runtime/redis.ts";
import { RedisBreakerBoard, type RedisBreakerOptions } from "./breaker-redis.ts";

/** Two gateway instances' breakers, each on its own connections, sharing one Redis. */
describe.runIf(process.env.REDIS_URL)("RedisBreakerBoard on a real Redis", () => {
  const connections: Redis[] = [];
  const boards: RedisBreakerBoard[] = [];
  let admin: Redis;
  let prefix: string;

  const connect = (name: string) => {
    const client = connectRedis(process.env.REDIS_URL!, name);
    connections.push(client);
    return client;
  };
  async function instance(
    options: Partial<RedisBreakerOptions> = {},
    client = connect("breaker-test"),
  ): Promise<RedisBreakerBoard> {
    const board = new RedisBreakerBoard(client, connect("breaker-test-sub"), {
      threshold: 3,
      windowMs: 30_000,
      cooldownMs: 60_000,
      probeTimeoutMs: 30_000,
      claimRetryMs: 50,
      prefix,
      onError: (err) => {
        throw err;
      },
      ...options,
    });
    boards.push(board);
    return board.start();
  }

  beforeAll(() => {
    admin = connect("breaker-test-admin");
  });
  afterEach(async () => {
    await Promise.all(boards.splice(0).map((b) => b.close()));
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length) await admin.del(...keys);
  });
  afterAll(async () => {
    await Promise.all(connections.map((c) => c.quit()));
  });
  const fresh = () => (prefix = `gw:breaker:test-${randomBytes(4).toString("hex")}`);

  it("opens on every instance once failures seen by several fill the window", async () => {
    fresh();
    const [a, b] = [await instance(), await instance()];
    a.record("east", "failure");
    b.record("east", "failure");
    a.record("east", "failure");
    await expect.poll(() => b.allows("east"), { timeout: 5_000 }).toBe(false);
    await expect.poll(() => a.allows("east"), { timeout: 5_000 }).toBe(false);
    expect(b.allows("west")).toBe(true);
  });

  it("never counts our own excess, nor touches Redis for a success on a closed breaker", async () => {
    fresh();
    const client = connect("breaker-test");
    const a = await instance({}, client);
    const sent = vi.spyOn(client, "sendCommand");
    for (let i = 0; i < 5; i++) a.record("east", "not-counted");
    for (let i = 0; i < 5; i++) a.record("east", "success");
    expect(a.allows("east")).toBe(true);
    expect(sent).not.toHaveBeenCalled();
    expect(await admin.keys(`${prefix}:*`)).toEqual([]);
    a.record("east", "failure");
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it("an instance started later reads the breakers already open", async () => {
    fresh();
    const a = await instance();
    for (let i = 0; i < 3; i++) a.record("east", "failure");
    await expect.poll(() => admin.hget(`${prefix}:open`, "east"), { timeout: 5_000 }).not.toBeNull();
    const late = await instance();
    expect(late.allows("east")).toBe(false);
  });

  it("in half-open lets exactly one probe through across instances, and its success closes all", async () => {
    fresh();
    const clock = { now: Date.now() };
    const options = { now: () => clock.now };
    const instances = [await instance(options), await instance(options), await instance(options)];
    for (let i = 0; i < 3; i++) instances[0]!.record("east", "failure");
    await expect.poll(() => instances.every((i) => !i.allows("east")), { timeout: 5_000 }).toBe(true);
    clock.now += 60_000;
    // Every instance keeps asking, as requests would, for well over the claim retry: one probe in all.
    let probes = 0;
    let prober: RedisBreakerBoard | undefined;
    const until = Date.now() + 1_000;
    while (Date.now() < until) {
      for (const i of instances)
        if (i.allows("east")) {
          probes++;
          prober = i;
        }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(probes).toBe(1);
    prober!.record("east", "success");
    await expect.poll(() => instances.every((i) => i.allows("east")), { timeout: 5_000 }).toBe(true);
    expect(await admin.hget(`${prefix}:open`, "east")).toBeNull();
  });

  it("counts failures on this instance alone while Redis does not answer", async () => {
    fresh();
    const errors: unknown[] = [];
    const away = connectRedis("redis://127.0.0.1:1", "breaker-test-away");
    away.on("error", () => {});
    connections.push(away);
    const board = new RedisBreakerBoard(away, away, {
      threshold: 3,
      windowMs: 30_000,
      cooldownMs: 60_000,
      probeTimeoutMs: 30_000,
      claimRetryMs: 50,
      prefix,
      onError: (err) => errors.push(err),
    });
    for (let i = 0; i < 3; i++) board.record("east", "failure");
    await expect.poll(() => board.allows("east"), { timeout: 20_000 }).toBe(false);
    expect(errors).toHaveLength(3);
  });

  it("a failed probe opens the breaker again everywhere for another cooldown", async () => {
    fresh();
    const clock = { now: Date.now() };
    const options = { now: () => clock.now };
    const [a, b] = [await instance(options), await instance(options)];
    for (let i = 0; i < 3; i++) a.record("east", "failure");
    await expect.poll(() => b.state("east"), { timeout: 5_000 }).toBe("open");
    clock.now += 60_000;
    let prober: RedisBreakerBoard | undefined;
    await expect
      .poll(() => (prober ??= [a, b].find((i) => i.allows("east"))), { timeout: 5_000, interval: 10 })
      .toBeDefined();
    prober!.record("east", "failure");
    await expect.poll(() => [a.state("east"), b.state("east")], { timeout: 5_000 }).toEqual(["open", "open"]);
  });
});
