import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { createMetrics } from "../../gateway/runtime/metrics.ts";
import type { Runtime } from "../../gateway/runtime/runtime.ts";
import { parseRoutingConfig } from "./config.ts";
import { buildRouting, type Routing } from "./deployments.ts";
import { fellOver, modelRouter, reloadRouting } from "./runtime-router.ts";

const ENV = { OPENAI_API_KEY: "sk-test" };

function routingOf(text: string): Routing {
  return buildRouting(parseRoutingConfig(text, "gateway.config.yaml", ENV), ENV);
}

/** What the router reads of a runtime: its config, metrics and close hooks. */
function fakeRuntime(routing: Routing): Runtime {
  const config = { ...loadConfig({}), routing, breakers: { threshold: 1 } };
  const meter = { pendingCount: () => 0, dropped: 0, rejected: 0, unlogged: 0 };
  return { config, metrics: createMetrics(meter), onClose: () => {} } as unknown as Runtime;
}

const FIRST = `deployments: [{name: oa, provider: openai, model: gpt-4.1}]
aliases: {smart: {deployments: [oa]}}`;
const SECOND = `deployments: [{name: oa, provider: openai, model: gpt-4.1}]
aliases: {clever: {deployments: [oa]}}`;

describe("reloadRouting", () => {
  it("keeps one router while the routing is unchanged, and gives the next call a router of the new routing", async () => {
    const rt = fakeRuntime(routingOf(FIRST));
    const before = await modelRouter(rt);
    expect(await modelRouter(rt)).toBe(before);
    expect(before.isAlias("smart")).toBe(true);

    reloadRouting(rt, routingOf(SECOND));
    const after = await modelRouter(rt);
    expect(after).not.toBe(before);
    expect(after.isAlias("clever")).toBe(true);
    expect(after.isAlias("smart")).toBe(false);
    // A request that got the old router before the reload still routes the old aliases.
    expect(before.isAlias("smart")).toBe(true);
    expect(rt.config.routing.aliases.has("clever")).toBe(true);
  });

  it("shares breakers and statistics with the router it replaces: an open breaker stays open", async () => {
    const rt = fakeRuntime(routingOf(FIRST));
    const before = await modelRouter(rt);
    before.breakers.record("oa", "failure");
    expect(before.breakers.state("oa")).toBe("open");

    reloadRouting(rt, routingOf(SECOND));
    const after = await modelRouter(rt);
    expect(after.breakers).toBe(before.breakers);
    expect(after.stats).toBe(before.stats);
    expect(after.breakers.state("oa")).toBe("open");
  });
});

describe("fellOver", () => {
  const at = (deployment: string, outcome: "ok" | "retried" | "failed" | "skipped") => ({ deployment, outcome });

  it("is true when another deployment than the first tried or passed over answered", () => {
    expect(fellOver([at("a", "failed"), at("b", "ok")])).toBe(true);
    expect(fellOver([at("a", "skipped"), at("b", "ok")])).toBe(true);
    expect(fellOver([at("a", "retried"), at("a", "failed"), at("b", "ok")])).toBe(true);
  });

  it("is false for the first deployment's answer, retried or not", () => {
    expect(fellOver([at("a", "ok")])).toBe(false);
    expect(fellOver([at("a", "retried"), at("a", "ok")])).toBe(false);
  });

  it("counts a plan run again after an answer from that answer on", () => {
    expect(fellOver([at("a", "failed"), at("b", "ok"), at("b", "ok")])).toBe(false);
    expect(fellOver([at("a", "ok"), at("a", "failed"), at("b", "ok")])).toBe(true);
  });
});
