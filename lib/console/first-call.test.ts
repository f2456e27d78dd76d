import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAICompatible, type FakeLlm } from "../../test/fakes/llm.ts";
import { tempDir } from "../../test/support/backends.ts";
import { startTestGateway, type TestGateway } from "../../test/support/gateway.ts";
import { firstCallSamples, helloRequest, sampleModel, type FirstCallId, type FirstCallRequest } from "./first-call.ts";

const run = promisify(execFile);

describe("sampleModel", () => {
  it("names the default provider's model when it is configured, else the first configured provider's", () => {
    expect(sampleModel({ XAI_API_KEY: "k", OPENAI_API_KEY: "k" })).toBe("xai/grok-4-fast");
    expect(sampleModel({ ANTHROPIC_API_KEY: "k", MISTRAL_API_KEY: "k" })).toBe("anthropic/claude-sonnet-4-5");
    expect(sampleModel({})).toBe("xai/grok-4-fast");
  });
});

describe("firstCallSamples", () => {
  it("shows the key only where the caller sets it, and a placeholder when there is none", () => {
    const withKey = firstCallSamples("http://gw.test", helloRequest("xai/grok-4-fast"), "sk_live_1");
    for (const s of withKey) {
      if (s.id === "mcp") expect(s.code).toContain('"Authorization": "Bearer sk_live_1"');
      else expect(s.code.match(/sk_live_1/g)).toEqual(["sk_live_1"]);
    }
    expect(withKey.find((s) => s.id === "chat-curl")!.code.split("\n")[0]).toBe("export API_KEY=sk_live_1");
    for (const s of firstCallSamples("http://gw.test", helloRequest("xai/grok-4-fast")))
      expect(s.code).toContain("<your key>");
  });
});

// Each sample is run as a developer would run it against a real gateway relaying to a fake provider:
// curl with sh, the TypeScript ones with node and the real SDKs, the MCP configuration's URL and header
// with a JSON-RPC call. The provider must receive the request the sample shows.
describe("first-call samples run against the gateway", () => {
  let gw: TestGateway;
  let xai: FakeLlm;
  let key: string;
  const saved = { ...process.env };
  const request: FirstCallRequest = {
    model: "xai/grok-4-fast",
    messages: [
      { role: "system", content: `Answer "briefly"; it's fine.` },
      { role: "user", content: "Ça va? 🙂 'quoted' \\ $HOME" },
    ],
    temperature: 0.5,
  };

  beforeAll(async () => {
    xai = await startFakeOpenAICompatible({ key: "xai-k", reply: "Hello from the sample." });
    Object.assign(process.env, { XAI_API_KEY: "xai-k", UPSTREAM_XAI_URL: xai.url });
    gw = await startTestGateway();
    key = (await gw.key()).key;
  });
  afterAll(async () => {
    process.env = saved;
    await gw?.close();
    await xai?.close();
  });

  const sample = (id: FirstCallId) => firstCallSamples(gw.url, request).find((s) => s.id === id)!.code;
  const runs: Record<string, (code: string) => [string, string[]]> = {
    "chat-curl": (code) => ["sh", ["-c", code]],
    "openai-typescript": (code) => [process.execPath, ["--input-type=module", "-e", code]],
    "anthropic-typescript": (code) => [process.execPath, ["--input-type=module", "-e", code]],
  };

  for (const id of ["chat-curl", "openai-typescript", "anthropic-typescript"] as const) {
    it(`${id}: the provider gets the sample's model, messages and temperature, and the answer is printed`, async () => {
      const before = xai.requests.length;
      const [file, args] = runs[id]!(sample(id));
      const { stdout } = await run(file, args, {
        env: { ...process.env, API_KEY: key },
        cwd: process.cwd(),
        timeout: 30_000,
      });
      expect(stdout).toContain("Hello from the sample.");
      expect(xai.requests.length).toBe(before + 1);
      expect(xai.requests.at(-1)!.body).toMatchObject({
        model: "grok-4-fast",
        temperature: 0.5,
        messages: [
          { role: "system", content: request.messages[0]!.content },
          { role: "user", content: request.messages[1]!.content },
        ],
      });
    });
  }

  it("mcp: the configuration's URL and header reach the gateway's tools", async () => {
    const code = firstCallSamples(gw.url, request, key).find((s) => s.id === "mcp")!.code;
    const config = JSON.parse(code.slice(code.indexOf("{"))) as {
      mcpServers: { gateway: { type: string; url: string; headers: Record<string, string> } };
    };
    const { url, headers, type } = config.mcpServers.gateway;
    expect(type).toBe("http");
    const res = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { tools: unknown[] } };
    expect(body.result.tools.length).toBeGreaterThan(10);
    // The Claude Code line sends the same header.
    expect(code).toContain(`claude mcp add --transport http gateway ${url} --header "Authorization: Bearer ${key}"`);
  });
});

// The Python SDKs are not installed where the tests run: stand-ins with the SDKs' call shapes print what
// the sample passed to the client and to the call, which must be this gateway and this request.
describe("first-call samples in Python", () => {
  const dir = tempDir();
  beforeAll(() => {
    const stand = (name: string, body: string) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, "__init__.py"), `import json\nfrom types import SimpleNamespace as NS\n${body}`);
    };
    stand(
      "openai",
      [
        "class OpenAI:",
        "    def __init__(self, **kw):",
        '        print(json.dumps({"client": kw}))',
        "        self.chat = NS(completions=NS(create=self._create))",
        "    def _create(self, **kw):",
        '        print(json.dumps({"call": kw}))',
        '        return NS(choices=[NS(message=NS(content="the reply"))])',
      ].join("\n"),
    );
    stand(
      "anthropic",
      [
        "class Anthropic:",
        "    def __init__(self, **kw):",
        '        print(json.dumps({"client": kw}))',
        "        self.messages = NS(create=self._create)",
        "    def _create(self, **kw):",
        '        print(json.dumps({"call": kw}))',
        '        return NS(content=[NS(type="text", text="the reply")])',
      ].join("\n"),
    );
  });

  const request: FirstCallRequest = {
    model: "anthropic/claude-sonnet-4-5",
    messages: [
      { role: "system", content: 'Be "brief".' },
      { role: "user", content: "null True None 🙂" },
      { role: "assistant", content: "Fine." },
      { role: "user", content: "Again?" },
    ],
    temperature: 1,
  };

  async function printed(id: FirstCallId) {
    const code = firstCallSamples("http://gw.test", request).find((s) => s.id === id)!.code;
    const { stdout } = await run("python3", ["-c", code], {
      env: { ...process.env, API_KEY: "sk_py", PYTHONPATH: dir },
      timeout: 20_000,
    });
    const [client, call, answer] = stdout.trim().split("\n");
    return { client: JSON.parse(client!).client, call: JSON.parse(call!).call, answer };
  }

  it("openai-python: base_url is the gateway's /v1 and the call is the request", async () => {
    expect(await printed("openai-python")).toEqual({
      client: { base_url: "http://gw.test/v1", api_key: "sk_py" },
      call: { model: request.model, messages: request.messages, temperature: 1 },
      answer: "the reply",
    });
  });

  it("anthropic-python: base_url is the gateway, the system prompt apart and max_tokens set", async () => {
    expect(await printed("anthropic-python")).toEqual({
      client: { base_url: "http://gw.test", api_key: "sk_py" },
      call: {
        model: request.model,
        max_tokens: 1024,
        system: 'Be "brief".',
        messages: request.messages.slice(1),
        temperature: 1,
      },
      answer: "the reply",
    });
  });
});
