import { describe, expect, it } from "vitest";
import { storyProblems } from "../lib/story-graph.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import { playableStory, type FakeStory } from "./fakes/story.ts";
import { useGateway } from "./support/use-gateway.ts";

const REPAIR = "Your answer cannot be used as it is:";
const answer = (story: unknown, usage?: { prompt_tokens: number; completion_tokens: number }): FakeTurn => ({
  content: JSON.stringify(story),
  ...(usage ? { usage } : {}),
});
/** The repair turn's text, when this request is one (the last user message). */
const repairOf = (req: FakeRequest) => {
  const last = req.body.messages.at(-1);
  return last?.role === "user" && last.content?.startsWith(REPAIR) ? last.content : undefined;
};

describe("/v1/generate/story: a story graph from the fake provider, checked and repaired", () => {
  let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
  let llm: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => [(llm = await startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) }))],
    env: ([fake]) => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: fake.url }),
  });
  /** Runs one request with this script; returns the response and what the fake was asked. */
  async function generate(body: unknown, turns: (req: FakeRequest) => FakeTurn | undefined) {
    const from = llm.requests.length;
    const asked: FakeRequest[] = [];
    script = (req) => {
      asked.push(req);
      return turns(req);
    };
    const res = await t.post("/v1/generate/story", body);
    expect(llm.requests.length - from).toBe(asked.length);
    return { res, body: await res.json(), asked };
  }

  it("Form B: a medium story from a description, with its size in the prompt and the answer", async () => {
    const story = playableStory(12, 2);
    const { res, body, asked } = await generate({ description: "A lighthouse keeper in a storm" }, () => answer(story));
    expect(res.status).toBe(200);
    expect(body).toEqual({ ...story, complexity: "medium", provider: "xai" });
    expect(storyProblems(body, "medium")).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.prompt).toContain("A lighthouse keeper in a storm");
    expect(asked[0]!.prompt).toContain("10 to 15 nodes");
    expect(asked[0]!.system).toContain('The first node has id "start"');
    // The shape is spelled out in the system prompt too (providers in JSON mode only); xai takes json_schema: the model is sent the story's schema, not only asked for JSON.
    expect(llm.requests.at(-1)!.body.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { schema: { properties: { nodes: expect.any(Object), connections: expect.any(Object) } } },
    });
    expect(asked[0]!.system).toContain('"connections": [{"from": node id');
  });

  it("Form A: prompt, genre and length; short is the simple band, and the answer says so", async () => {
    const story = playableStory(6);
    const { res, body, asked } = await generate({ prompt: "A cat at sea", genre: "fable", length: "short" }, () =>
      answer(story),
    );
    expect(res.status).toBe(200);
    expect(body).toEqual({ ...story, complexity: "simple", length: "short", genre: "fable", provider: "xai" });
    expect(asked[0]!.prompt).toMatch(/A cat at sea[\s\S]*Genre: fable\.[\s\S]*5 to 8 nodes, with at least one ending/);

    const long = await generate({ prompt: "A cat at sea", length: "long" }, () => answer(playableStory(24, 3)));
    expect(long.res.status).toBe(200);
    expect(long.body).toMatchObject({ complexity: "complex", length: "long" });
    expect(long.body.genre).toBeUndefined();
    expect(long.asked[0]!.prompt).toContain("20 to 40 nodes, with at least 2 different endings");
  });

  it("repairs a dangling connection: the model is told which, and its second answer is used", async () => {
    const broken = playableStory(6);
    // room-2's only way on leads nowhere: dropping it would strand the story, so the model must fix it.
    broken.connections = broken.connections.map((c) => (c.from === "room-2" ? { ...c, to: "cellar" } : c));
    const good = playableStory(7);
    const { res, body, asked } = await generate({ description: "stairs", complexity: "simple" }, (req) =>
      answer(repairOf(req) ? good : broken),
    );
    expect(res.status).toBe(200);
    expect(body.nodes).toEqual(good.nodes);
    expect(asked).toHaveLength(2);
    const repair = repairOf(asked[1]!)!;
    expect(repair).toContain('every connection must join two existing nodes: "room-2" → "cellar"');
    // The model sees its own first answer before the problems.
    expect(asked[1]!.body.messages.at(-2)).toMatchObject({ role: "assistant", content: JSON.stringify(broken) });
  });

  it("drops a dangling connection without a repair turn when the story is playable without it", async () => {
    const story = playableStory(6);
    const extra: FakeStory = {
      ...story,
      connections: [...story.connections, { from: "start", to: "attic", label: "Up" }],
    };
    const { res, body, asked } = await generate({ description: "stairs", complexity: "simple" }, () => answer(extra));
    expect(res.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(body.connections).toEqual(story.connections);
  });

  it("repairs an unreachable node", async () => {
    const broken = playableStory(6);
    broken.nodes.push({ id: "island", type: "ending", text: "Nobody comes here." });
    const { res, asked } = await generate({ description: "stairs", complexity: "simple" }, (req) =>
      answer(repairOf(req) ? playableStory(6) : broken),
    );
    expect(res.status).toBe(200);
    expect(repairOf(asked[1]!)).toContain('every node must be reachable from "start": no path leads to "island"');
  });

  it("repairs a node count outside the band, and an answer that is not JSON of the schema", async () => {
    const big = await generate({ description: "stairs", complexity: "simple" }, (req) =>
      answer(playableStory(repairOf(req) ? 8 : 11)),
    );
    expect(big.res.status).toBe(200);
    expect(big.body.nodes).toHaveLength(8);
    expect(repairOf(big.asked[1]!)).toContain("a simple story has 5 to 8 nodes, this one has 11");

    const malformed = await generate({ description: "stairs", complexity: "simple" }, (req) =>
      repairOf(req) ? answer(playableStory(5)) : answer({ title: "No graph", nodes: [] }),
    );
    expect(malformed.res.status).toBe(200);
    expect(repairOf(malformed.asked[1]!)).toMatch(/does not match the schema: nodes: /);
  });

  it("answers the story with warnings naming the rules it still breaks after the repair turn; 502 with strict", async () => {
    const broken = playableStory(6);
    broken.nodes.push({ id: "island", type: "story", text: "Nobody comes here." });
    const rules = [
      'every node must be reachable from "start": no path leads to "island"',
      'every node that is not an ending needs at least one outgoing connection: "island" has none',
    ];
    const warned = await generate({ description: "stairs", complexity: "simple" }, () => answer(broken));
    expect(warned.res.status).toBe(200);
    expect(warned.asked).toHaveLength(2);
    expect(warned.body).toEqual({ ...broken, complexity: "simple", provider: "xai", warnings: rules });

    const { res, body, asked } = await generate({ description: "stairs", complexity: "simple", strict: true }, () =>
      answer(broken),
    );
    expect(res.status).toBe(502);
    expect(asked).toHaveLength(2);
    expect(body.error).toBe(`xai did not produce a valid story after a repair attempt: ${rules.join("; ")}`);
  });

  it("meters the tokens of every call, the repair turn's included, to the key", async () => {
    const { res } = await generate({ description: "stairs", complexity: "simple" }, (req) =>
      repairOf(req)
        ? answer(playableStory(5), { prompt_tokens: 120, completion_tokens: 50 })
        : answer(playableStory(3), { prompt_tokens: 100, completion_tokens: 40 }),
    );
    expect(res.status).toBe(200);
    const events = t.gw.rt.meter.pendingFor(t.keyId).filter((e) => e.route === "/v1/generate/story");
    expect(events.at(-1)).toMatchObject({ provider: "xai", promptTokens: 220, completionTokens: 90, status: 200 });
  });

  it("answers 400 naming the field and its allowed values, or the form's missing premise, without a model call", async () => {
    const cases: Array<[unknown, string]> = [
      [
        { description: "x", complexity: "epic" },
        'complexity: Invalid option: expected one of "simple"|"medium"|"complex"',
      ],
      [{ prompt: "x", length: "novel" }, 'length: Invalid option: expected one of "short"|"medium"|"long"'],
      [{ genre: "noir" }, "prompt (Form A) or description (Form B) is required"],
      [{ prompt: "x", description: "y" }, "send prompt (Form A) or description (Form B), not both"],
      [{ description: "   " }, "description: "],
    ];
    for (const [body, message] of cases) {
      const { res, body: answered, asked } = await generate(body, () => answer(playableStory(6)));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(answered.error).toContain(message);
      expect(asked).toHaveLength(0);
    }
    const unknown = await generate({ description: "x", provider: "nobody" }, () => answer(playableStory(6)));
    expect(unknown.res.status).toBe(400);
  });
});
