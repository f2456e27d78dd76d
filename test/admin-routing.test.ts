import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routingAction, type RoutingEditor } from "../lib/portal/admin/routing-actions.ts";
import { routingView, versionOf, type RoutingPlace } from "../lib/portal/admin/routing-edits.ts";
import { startFakeAnthropic, type FakeLlm } from "./fakes/llm.ts";
import { tempDir } from "./support/backends.ts";
import { startTestGateway, type TestGateway } from "./support/gateway.ts";

const OPERATOR: RoutingEditor = { operator: true, actor: "ops@example.test" };
const credentials = { ADMIN_ROUTING_KEY: "edited-key" };

/** A routing file with one deployment on the Anthropic fake and the given aliases over it. */
function routingText(anthropic: string, aliases: Record<string, unknown>): string {
  return JSON.stringify(
    {
      deployments: [
        {
          name: "claude-edited",
          provider: "anthropic",
          model: "claude-sonnet-4-5",
          credential: "ADMIN_ROUTING_KEY",
          origin: anthropic,
        },
      ],
      aliases,
    },
    null,
    2,
  );
}

describe("the operator edits the routing file in the admin area, and it is in force without a restart", () => {
  let gw: TestGateway;
  let key: string;
  let anthropic: FakeLlm;
  let place: RoutingPlace;
  let cwd: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    anthropic = await startFakeAnthropic({ key: "edited-key", reply: "Answered by the edited route." });
    // Provider calls read their credentials from the process's environment.
    Object.assign(process.env, credentials);
    // No routing file: the gateway starts on the environment alone, and a save writes ./gateway.config.json.
    gw = await startTestGateway({ env: credentials });
    key = (await gw.key()).key;
    cwd = tempDir("admin-routing");
    place = { env: { ...gw.env }, cwd };
  });
  afterAll(async () => {
    process.env = saved;
    await gw?.close();
    await anthropic?.close();
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
  });

  const models = async () => {
    const res = await gw.request("/v1/models", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string; owned_by: string }[] }).data;
  };
  const chat = (model: string) =>
    gw.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "hello" }] }),
    });
  const save = (text: string, editor: RoutingEditor | null = OPERATOR) =>
    routingAction(gw.rt, editor, { text, version: routingView(gw.rt.config.routing, place).version }, true, place);

  it("Check names each problem by line and column, and changes nothing", async () => {
    const text = '{\n  "aliases": {\n    "smart": { "deployments": ["nowhere"] }\n  }\n}\n';
    const state = await routingAction(gw.rt, OPERATOR, { text, version: versionOf("") }, false, place);
    expect(state.error).toBe("Not valid: 1 problem in gateway.config.json.");
    expect(state.problems).toEqual(['3:32 aliases.smart.deployments[0]: unknown deployment "nowhere"']);
    expect(fs.existsSync(path.join(cwd, "gateway.config.json"))).toBe(false);

    const good = await routingAction(
      gw.rt,
      OPERATOR,
      { text: routingText(anthropic.url, { smart: { deployments: ["claude-edited"] } }), version: versionOf("") },
      false,
      place,
    );
    expect(good).toEqual({ message: "The file is valid: 1 alias, 1 deployment." });
    expect(fs.existsSync(path.join(cwd, "gateway.config.json"))).toBe(false);
    expect((await models()).some((m) => m.id === "smart")).toBe(false);
  });

  it("Save with no file yet writes ./gateway.config.json; /v1/models lists the alias and a chat call routes through it", async () => {
    expect(routingView(gw.rt.config.routing, place).file).toBeUndefined();
    const text = routingText(anthropic.url, { smart: { deployments: ["claude-edited"] } });
    const state = await save(text);
    expect(state.error).toBeUndefined();
    expect(state.message).toMatch(/^Saved to gateway\.config\.json and in force on this instance: 1 alias/);
    expect(fs.readFileSync(path.join(cwd, "gateway.config.json"), "utf8")).toBe(text);
    // No temporary file left beside it.
    expect(fs.readdirSync(cwd)).toEqual(["gateway.config.json"]);

    expect((await models())[0]).toMatchObject({ id: "smart", owned_by: "gateway" });
    const res = await chat("smart");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(
      "Answered by the edited route.",
    );

    const entry = await gw.rt.db.prisma.auditLog.findFirst({
      where: { action: "routing.save" },
      orderBy: { id: "desc" },
    });
    expect(entry).toMatchObject({ actor: "ops@example.test", target: "gateway.config.json" });
    expect(entry!.detail).toMatchObject({ aliases: ["smart"], deployments: ["claude-edited"] });
  });

  it("a second Save renames the alias: the old name is gone from /v1/models and no longer reaches its deployment, the new one answers", async () => {
    const text = routingText(anthropic.url, { clever: { deployments: ["claude-edited"] } });
    expect((await save(text)).error).toBeUndefined();
    const ids = (await models()).map((m) => m.id);
    expect(ids).toContain("clever");
    expect(ids).not.toContain("smart");
    expect((await chat("clever")).status).toBe(200);
    const asked = anthropic.requests.length;
    const old = await chat("smart");
    // No longer an alias: read as a bare model id of the default provider, which this gateway has no key for.
    expect(old.status).toBe(503);
    expect(await old.text()).toMatch(/is not configured/);
    expect(anthropic.requests.length).toBe(asked);
    expect(await gw.rt.db.prisma.auditLog.count({ where: { action: "routing.save" } })).toBe(2);
  });

  it("refuses an invalid Save with line:column, leaving the file and the routing as they were", async () => {
    const before = fs.readFileSync(path.join(cwd, "gateway.config.json"), "utf8");
    const state = await save(
      '{\n  "aliases": {\n    "broken": { "strategy": "random", "deployments": ["claude-edited"] }\n  }\n}',
    );
    expect(state.error).toBe("Not saved: 1 problem in gateway.config.json.");
    expect(state.problems).toEqual([
      "3:29 aliases.broken.strategy: one of fallback, weighted, least-in-flight, lowest-latency",
    ]);
    expect(fs.readFileSync(path.join(cwd, "gateway.config.json"), "utf8")).toBe(before);
    expect((await models()).map((m) => m.id)).toContain("clever");
  });

  it("refuses a Save over a file changed since the page was loaded", async () => {
    const text = routingText(anthropic.url, { other: { deployments: ["claude-edited"] } });
    const state = await routingAction(gw.rt, OPERATOR, { text, version: versionOf("stale") }, true, place);
    expect(state.error).toMatch(/changed since this page was loaded: reload the page/);
    expect((await models()).map((m) => m.id)).not.toContain("other");
  });

  it("says so when the file cannot be written, and keeps the routing in force", async () => {
    const text = routingText(anthropic.url, { elsewhere: { deployments: ["claude-edited"] } });
    // The file's directory is gone (an unmounted volume, say).
    const gone = { env: place.env, cwd: path.join(cwd, "gone") };
    const state = await routingAction(gw.rt, OPERATOR, { text, version: versionOf("") }, true, gone);
    expect(state.error).toBe(
      "Not saved: gateway.config.json could not be written (ENOENT); the routing in force is unchanged.",
    );
    expect((await models()).map((m) => m.id)).not.toContain("elsewhere");
  });

  it("refuses anyone but an operator, for Check and Save alike, and writes nothing", async () => {
    const before = fs.readFileSync(path.join(cwd, "gateway.config.json"), "utf8");
    const text = routingText(anthropic.url, { sneaky: { deployments: ["claude-edited"] } });
    const user: RoutingEditor = { operator: false, actor: "alice@example.test" };
    for (const editor of [user, null]) {
      for (const saving of [false, true]) {
        const state = await routingAction(gw.rt, editor, { text, version: versionOf(before) }, saving, place);
        expect(state).toEqual({ error: "operators only: sign in with an address listed in ADMIN_EMAILS" });
      }
    }
    expect(fs.readFileSync(path.join(cwd, "gateway.config.json"), "utf8")).toBe(before);
    expect((await models()).map((m) => m.id)).not.toContain("sneaky");
    expect(await gw.rt.db.prisma.auditLog.count({ where: { action: "routing.save" } })).toBe(2);
  });
});
