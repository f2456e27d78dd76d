import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "../../test/support/listen.ts";
import { chatBody, ChatSettings, codeSamples, pythonLiteral, shellQuote } from "./chat-request.ts";

const run = promisify(execFile);

describe("chatBody", () => {
  it("puts the system prompt first and sends temperature only when set", () => {
    const settings = ChatSettings.parse({
      provider: "xai",
      model: "grok-4-fast",
      system: " Be brief. ",
      temperature: "0.2",
    });
    expect(chatBody(settings, [{ role: "user", content: "Hi" }])).toEqual({
      provider: "xai",
      model: "grok-4-fast",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      temperature: 0.2,
    });
    const plain = ChatSettings.parse({ provider: "xai", model: "m", system: "  ", temperature: "" });
    expect(chatBody(plain, [])).toEqual({ provider: "xai", model: "m", messages: [] });
  });

  it("refuses a temperature outside 0–2 with a message a person can act on", () => {
    const result = ChatSettings.safeParse({ provider: "xai", model: "m", system: "", temperature: "3" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Temperature is 0 to 2");
  });
});

describe("code literals", () => {
  it("writes Python's constants and quotes shell words that hold quotes", () => {
    expect(pythonLiteral({ a: true, b: [null, false, 1.5, 'x"y'] })).toBe(
      '{\n    "a": True,\n    "b": [\n        None,\n        False,\n        1.5,\n        "x\\"y",\n    ],\n}',
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

// Each sample is run as a developer would run it (sh, node, python3) against a loopback server, which
// must receive exactly the console's request: awkward text included (quotes, newlines, non-ASCII).
describe("codeSamples run against a server", () => {
  let server: Listening;
  const seen: { path: string; key: string | null; type: string | null; body: unknown }[] = [];
  beforeAll(async () => {
    server = await listen(async (req: Request) => {
      seen.push({
        path: new URL(req.url).pathname,
        key: req.headers.get("x-api-key"),
        type: req.headers.get("content-type"),
        body: await req.json(),
      });
      return Response.json({ content: "the reply", model: "m", provider: "xai" });
    });
  });
  afterAll(() => server?.close());

  const settings = ChatSettings.parse({
    provider: "xai",
    model: "grok-4-fast",
    system: `Answer "briefly"; it's fine.\nUse $HOME and \`ticks\` literally.`,
    temperature: "0.7",
  });
  const body = chatBody(settings, [
    { role: "user", content: "Ça va? 🙂 'quoted' \\ backslash" },
    { role: "assistant", content: "Oui." },
    { role: "user", content: "null true false" },
  ]);
  const commands: Record<string, (code: string) => [string, string[]]> = {
    curl: (code) => ["sh", ["-c", code]],
    javascript: (code) => [process.execPath, ["--input-type=module", "-e", code]],
    python: (code) => ["python3", ["-c", code]],
  };

  for (const id of ["curl", "javascript", "python"] as const) {
    it(`${id} sends the console's request with the key from the environment`, async () => {
      const sample = codeSamples(server.url, body).find((s) => s.id === id)!;
      const [file, args] = commands[id]!(sample.code);
      const before = seen.length;
      const { stdout } = await run(file, args, { env: { ...process.env, API_KEY: "sk_sample_123" }, timeout: 20_000 });
      expect(seen.length).toBe(before + 1);
      expect(seen.at(-1)).toEqual({ path: "/v1/llm/chat", key: "sk_sample_123", type: "application/json", body });
      expect(stdout).toContain(id === "curl" ? '"content":"the reply"' : "the reply");
      // The key itself never appears in the code: only its placeholder.
      expect(sample.code).not.toContain("sk_");
    });
  }
});
