import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeResearchLlm, type FakeResearchLlm } from "./fakes/research-llm.ts";
import { writeRoutingFile, type RoutingFile } from "./support/routing-gateway.ts";
import { useGateway } from "./support/use-gateway.ts";

// Templated generation and the research agents reach their model through the model router, as the chat
// surfaces do: a generation's `provider` may name an alias, and a failing deployment is fallen over.

const lesson = {
  title: "Ordering food",
  objectives: ["Order a meal politely", "Ask about ingredients"],
  outline: {
    warm_up: "5 min: favourite dishes in pairs",
    presentation: "10 min: restaurant phrases",
    practice: "15 min: menu role cards",
    production: "20 min: restaurant role play",
    wrap_up: "10 min: error correction and review",
  },
  handout_content: ["Phrase bank", "Menu"],
  video_suggestions: ["Ordering at a restaurant"],
  visual_aids: ["Menu pictures"],
  assessment_ideas: ["Role-play checklist"],
  differentiation: { struggling: "Sentence frames", advanced: "Handle a complaint" },
};

// Deployment names apart per run: breakers shared through Redis are keyed by them.
const run = randomUUID().slice(0, 8);

/**
 * `smart` over a deployment whose provider answers 500 and a healthy one; the healthy provider also
 * serves xai's balanced model (a key pool behind `xai/grok-4-fast`, whose own provider is the failing one).
 */
function routing(down: string, up: string): RoutingFile {
  return {
    deployments: [
      { name: `down-${run}`, provider: "openai", model: "gpt-4.1", credential: "ROUTED_DOWN_KEY", origin: down },
      { name: `up-${run}`, provider: "openai", model: "gpt-4.1-mini", credential: "ROUTED_UP_KEY", origin: up },
      { name: `xai-spare-${run}`, provider: "xai", model: "grok-4-fast", credential: "ROUTED_UP_KEY", origin: up },
    ],
    aliases: { smart: { deployments: [`down-${run}`, `up-${run}`], retries: 0 } },
  };
}

describe("routed generation: templates and agents fall over through the model router", () => {
  let down: FakeResearchLlm;
  let up: FakeResearchLlm;
  const credentials = { ROUTED_DOWN_KEY: "down-key", ROUTED_UP_KEY: "up-key" };
  const config: Record<string, string> = { ...credentials, GATEWAY_BREAKER_THRESHOLD: "1000" };
  // useGateway, not startRoutedGateway: XAI_API_KEY belongs in the process's environment alone (in the
  // gateway's own it would add xai's implicit deployment to the routing).
  let written: ReturnType<typeof writeRoutingFile> | undefined;
  afterAll(() => written?.remove());
  const t = useGateway({
    fakes: async () => {
      down = await startFakeResearchLlm({ key: "down-key", script: () => ({ status: 500 }) });
      up = await startFakeResearchLlm({
        key: "up-key",
        script: (req) => ({
          content:
            req.role === "chat"
              ? "The spare deployment answered."
              : req.system.startsWith("You summarise")
                ? "A short summary."
                : JSON.stringify(lesson),
        }),
      });
      written = writeRoutingFile(routing(down.url, up.url));
      config.GATEWAY_CONFIG = written.file;
      return [down, up];
    },
    // Provider calls read their credentials from the process's environment; xai itself is the failing one.
    env: () => ({ ...credentials, XAI_API_KEY: "down-key", UPSTREAM_XAI_URL: down.url }),
    config,
  });
  const since = (llm: () => FakeResearchLlm) => {
    const from = llm().requests.length;
    return () => llm().requests.slice(from);
  };

  it("a lesson plan naming the alias `smart` as its provider falls over from the failing deployment", async () => {
    const failed = since(() => down);
    const answered = since(() => up);
    const res = await t.post("/v1/generate/lesson-plan", { topic: "Restaurants", provider: "smart" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: "Ordering food", provider: "openai" });
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    expect(res.headers.get("x-gateway-model")).toBe("gpt-4.1-mini");
    expect(failed().map((r) => r.model)).toEqual(["gpt-4.1"]);
    expect(answered().map((r) => r.model)).toEqual(["gpt-4.1-mini"]);
  });

  it("a summary naming the alias `smart` as its provider falls over too", async () => {
    const failed = since(() => down);
    const res = await t.post("/v1/utils/text/summarize", { text: "A text to sum up.", provider: "smart" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ summary: "A short summary.", provider: "openai", model: "gpt-4.1-mini" });
    expect(res.headers.get("x-gateway-attempts")).toBe("2");
    expect(failed()).toHaveLength(1);
  });

  it("a provider's name still means its default model, and an unknown one is still a 400", async () => {
    const res = await t.post("/v1/generate/lesson-plan", { topic: "Restaurants", provider: "acme" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/unknown provider 'acme'/);
  });

  it("a swarm chat agent on xai falls over to the deployment serving the same model when xai answers 500", async () => {
    const failed = since(() => down);
    const answered = since(() => up);
    const res = await t.post("/v1/swarm/chat", { prompt: "Who was Ada Lovelace?", tools: ["wikipedia_search"] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      answer: "The spare deployment answered.",
      provider: "xai",
      model: "grok-4-fast",
    });
    expect(failed().length).toBeGreaterThan(0);
    expect(failed().every((r) => r.model === "grok-4-fast")).toBe(true);
    expect(answered().map((r) => r.model)).toEqual(["grok-4-fast"]);
  });
});
