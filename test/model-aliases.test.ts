import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../lib/config.ts";
import { tempDir } from "./support/backends.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe("GET /v1/models with a routing file (GATEWAY_CONFIG)", () => {
  let gw: RoutedGateway;
  let key: string;

  beforeAll(async () => {
    gw = await startRoutedGateway({
      routing: {
        deployments: [
          { name: "oa-1", provider: "openai", model: "gpt-4.1", credential: "OPENAI_API_KEY" },
          { name: "oa-2", provider: "openai", model: "gpt-4.1", credential: "OPENAI_API_KEY_2", weight: 2 },
          { name: "claude", provider: "anthropic", model: "claude-sonnet-4-5" },
        ],
        aliases: { smart: { strategy: "fallback", deployments: ["oa-1", { name: "oa-2", weight: 1 }, "claude"] } },
      },
      // The provider listing reads the process's environment, as providers' calls do.
      providerEnv: { OPENAI_API_KEY: "oa-1", OPENAI_API_KEY_2: "oa-2", ANTHROPIC_API_KEY: "an" },
    });
    key = gw.apiKey;
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("lists the alias with its strategy and deployments, beside provider/model entries", async () => {
    const res = await gw.request("/v1/models", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; data: { id: string; owned_by: string; routing?: unknown }[] };
    expect(body.object).toBe("list");
    expect(body.data.find((m) => m.id === "smart")).toEqual({
      id: "smart",
      object: "model",
      created: 0,
      owned_by: "gateway",
      routing: {
        strategy: "fallback",
        deployments: [
          { name: "oa-1", provider: "openai", model: "gpt-4.1" },
          { name: "oa-2", provider: "openai", model: "gpt-4.1" },
          { name: "claude", provider: "anthropic", model: "claude-sonnet-4-5" },
        ],
      },
    });
    expect(body.data.find((m) => m.id === "openai/gpt-4.1-mini")).toEqual({
      id: "openai/gpt-4.1-mini",
      object: "model",
      created: 0,
      owned_by: "openai",
    });
  });
});

describe("start-up with a bad routing file", () => {
  it("stops with the file, line and problem", () => {
    const dir = tempDir("routing");
    dirs.push(dir);
    const file = path.join(dir, "gateway.config.yaml");
    fs.writeFileSync(file, "aliases:\n  smart:\n    deployments: [gpt-x]\n");
    // What server.ts prints after "gateway: " before it exits 1.
    expect(() => loadConfig({ GATEWAY_CONFIG: file })).toThrow(
      `invalid configuration: ${file}:3:19 aliases.smart.deployments[0]: unknown deployment "gpt-x"`,
    );
  });
});
