import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropic, startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import type { TestGateway } from "./support/gateway.ts";
import { startRoutedGateway, type RoutedGateway } from "./support/routing-gateway.ts";

const credentials = { RULES_OPENAI_KEY: "oa-key", RULES_ANTHROPIC_KEY: "cl-key" };

type Surface = "chat" | "messages" | "responses";

function ask(gw: TestGateway, key: string, surface: Surface, model: string) {
  const messages = [{ role: "user", content: "which model?" }];
  const [url, body] =
    surface === "chat"
      ? ["/v1/chat/completions", { model, messages }]
      : surface === "messages"
        ? ["/v1/messages", { model, max_tokens: 50, messages }]
        : ["/v1/responses", { model, input: "which model?", store: false }];
  return gw.request(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("per-key model rules: the router refuses or narrows what a key may call", () => {
  let gw: RoutedGateway;
  let openai: FakeLlm;
  let anthropic: FakeLlm;

  beforeAll(async () => {
    [openai, anthropic] = await Promise.all([
      startFakeOpenAICompatible({ key: "oa-key", reply: "GPT answered." }),
      startFakeAnthropic({ key: "cl-key", reply: "Claude answered." }),
    ]);
    gw = await startRoutedGateway({
      routing: {
        deployments: [
          { name: "oa", provider: "openai", model: "gpt-4.1", credential: "RULES_OPENAI_KEY", origin: openai.url },
          {
            name: "cl",
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            credential: "RULES_ANTHROPIC_KEY",
            origin: anthropic.url,
          },
        ],
        // OpenAI first: a key that may use it is answered from there.
        aliases: { smart: { strategy: "fallback", deployments: ["oa", "cl"] }, cheap: { deployments: ["oa"] } },
      },
      providerEnv: credentials,
    });
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([openai?.close(), anthropic?.close()]);
  });

  it("a key denied openai/* is refused openai/gpt-4.1 with a 403 naming the rule, in each surface's shape", async () => {
    const { key } = await gw.key({ name: "no openai", modelDeny: ["openai/*"] });
    const before = openai.requests.length;
    const message = "model 'openai/gpt-4.1' is refused by this key's rule deny 'openai/*'";

    const chat = await ask(gw, key, "chat", "openai/gpt-4.1");
    expect(chat.status).toBe(403);
    expect(((await chat.json()) as { error: { message: string } }).error.message).toBe(message);

    const messages = await ask(gw, key, "messages", "openai/gpt-4.1");
    expect(messages.status).toBe(403);
    expect(await messages.json()).toMatchObject({ type: "error", error: { type: "permission_error", message } });

    const responses = await ask(gw, key, "responses", "openai/gpt-4.1");
    expect(responses.status).toBe(403);
    expect(((await responses.json()) as { error: { message: string } }).error.message).toBe(message);

    expect(openai.requests.length).toBe(before);
  });

  it("the same key's alias over OpenAI and Anthropic is answered by Anthropic, OpenAI never asked", async () => {
    const { key } = await gw.key({ name: "no openai, smart", modelDeny: ["openai/*"] });
    const before = openai.requests.length;
    for (const surface of ["chat", "messages"] as const) {
      const res = await ask(gw, key, surface, "smart");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-gateway-provider")).toBe("anthropic");
      expect(res.headers.get("x-gateway-attempts")).toBe("1");
      expect(JSON.stringify(await res.json())).toContain("Claude answered.");
    }
    expect(openai.requests.length).toBe(before);

    // A key without rules is answered by the alias's first deployment.
    const { key: open } = await gw.key({ name: "open" });
    const res = await ask(gw, open, "chat", "smart");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-gateway-provider")).toBe("openai");
  });

  it("a key allowed only 'cheap' calls cheap, and is refused smart and a provider/model", async () => {
    const { key } = await gw.key({ name: "cheap only", modelAllow: ["cheap"] });
    const info = await gw.request("/v1/key", { headers: { authorization: `Bearer ${key}` } });
    expect(((await info.json()) as { models: unknown }).models).toEqual({ allow: ["cheap"], deny: [] });
    const cheap = await ask(gw, key, "chat", "cheap");
    expect(cheap.status).toBe(200);
    expect(cheap.headers.get("x-gateway-provider")).toBe("openai");

    for (const model of ["smart", "anthropic/claude-sonnet-4-5"]) {
      const refused = await ask(gw, key, "chat", model);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        `model '${model}' is refused by this key's rule allow 'cheap'`,
      );
    }
  });
});
