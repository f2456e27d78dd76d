import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { startFakeSchemaOnlyLlm, type FakeSchemaOnlyLlm } from "./fakes/schema-only-llm.ts";
import { useGateway } from "./support/use-gateway.ts";

// Templated generation against a model that follows the JSON schema it is sent and nothing else (the
// least instance of it: arrays at minItems, numbers at their minimum, strings "x" or the const). Every
// rule a schema can carry must be in the schema sent, and every rule needing no model fixed by the
// gateway: each template in each form answers 200 without a repair turn, except the story, whose graph
// rules no schema can say (200 with warnings; 502 with strict).

const SAFE_BOUND = "9007199254740991";

describe("/v1/generate with a schema-only model: both forms of every template answer 200", () => {
  let llm: FakeSchemaOnlyLlm;
  let png: Buffer;
  const t = useGateway({
    fakes: async () => {
      png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "blue" } })
        .png()
        .toBuffer();
      return [(llm = await startFakeSchemaOnlyLlm({ key: "schema-only" }))];
    },
    env: ([fake]) => ({
      XAI_API_KEY: "schema-only",
      UPSTREAM_XAI_URL: fake.url,
      OPENAI_API_KEY: "schema-only",
      UPSTREAM_OPENAI_URL: fake.url,
    }),
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });

  /** One request: its status, its body, and what the fake was asked and answered for it. */
  async function generate(path: string, body: unknown) {
    const from = llm.requests.length;
    const res = await t.post(`/v1/generate/${path}`, body);
    const calls = llm.requests.slice(from);
    // Every schema sent compiles and every least instance of it validates: the fake itself is sound.
    expect(llm.invalid).toEqual([]);
    for (const call of calls) expect(JSON.stringify(call.schema ?? {})).not.toContain(SAFE_BOUND);
    return { status: res.status, body: await res.json(), calls };
  }

  /** 200, no warnings, one model call (no repair turn). */
  async function clean(path: string, body: unknown) {
    const answer = await generate(path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.warnings).toBeUndefined();
    expect(answer.calls).toHaveLength(1);
    return answer;
  }

  describe("itinerary", () => {
    it("Form A: exactly the days asked, numbered 1..N, the destination as given", async () => {
      const { body, calls } = await clean("itinerary", { destination: "Lisbon", days: 4, interests: "tiles" });
      expect(body.daily_itinerary.map((d: { day: number }) => d.day)).toEqual([1, 2, 3, 4]);
      expect(body).toMatchObject({ destination: "Lisbon", duration: 4, provider: "xai" });
      const days = calls[0]!.schema!.properties!.daily_itinerary!;
      expect(days).toMatchObject({
        minItems: 4,
        maxItems: 4,
        items: { properties: { day: { minimum: 1, maximum: 4 } } },
      });
    });

    it("Form B: the default 3 days", async () => {
      const { body } = await clean("itinerary", { destination: "Lisbon", interests: ["food"], pace: "packed" });
      expect(body.daily_itinerary.map((d: { day: number }) => d.day)).toEqual([1, 2, 3]);
      expect(body.duration).toBe(3);
    });
  });

  describe("lesson-plan", () => {
    it("Form A and Form B: every stage, two objectives, an assessment idea, both differentiations", async () => {
      const a = await clean("lesson-plan", { topic: "Weather", duration: 45 });
      expect(a.body.objectives).toHaveLength(2);
      expect(a.body).toMatchObject({ duration: 45, outline: { wrap_up: "x" }, differentiation: { advanced: "x" } });
      const b = await clean("lesson-plan", { topic: "Weather", level: "A2", focus: "grammar" });
      expect(b.body).toMatchObject({ level: "A2", duration: "60min", assessment_ideas: ["x"] });
    });
  });

  describe("business-plan", () => {
    it("Form A: the standard counts of competitors, risks and milestones", async () => {
      const { body } = await clean("business-plan", { idea: "Robot coffee", target_market: "Commuters" });
      expect(body.competitive_analysis.direct_competitors).toHaveLength(2);
      expect(body.risk_assessment).toHaveLength(3);
      expect(body.operations_plan.milestones).toHaveLength(4);
    });

    it("Form B: comprehensive detail asks the schema for more; months start at 1", async () => {
      const { body } = await clean("business-plan", {
        idea: "Robot coffee",
        location: "Berlin",
        detail_level: "comprehensive",
      });
      expect(body.competitive_analysis.direct_competitors).toHaveLength(3);
      expect(body.risk_assessment).toHaveLength(5);
      expect(body.operations_plan.milestones.map((m: { month: number }) => m.month)).toEqual([1, 1, 1, 1, 1, 1]);
    });
  });

  describe("resume", () => {
    it("Form A: Markdown under the name given", async () => {
      const { body, calls } = await clean("resume", { experience: "Five years at Acme", name: "Ana Silva" });
      expect(body).toMatchObject({ format: "markdown", provider: "xai" });
      expect(body.resume).toMatch(/^# Ana Silva\n/);
      expect(calls[0]!.schema!.properties!.header!.properties!.name).toMatchObject({ const: "Ana Silva" });
    });

    it("Form B: the name, one entry per role with its company, one per education item", async () => {
      const { body } = await clean("resume", {
        name: "Ana Silva",
        experience: [
          { title: "Engineer", company: "Acme", highlights: ["Built the billing service"] },
          { title: "Intern", company: "Initech" },
        ],
        education: [{ degree: "BSc", institution: "IST", year: 2015 }],
      });
      expect(body.header.name).toBe("Ana Silva");
      expect(body.experience.map((e: { company: string }) => e.company)).toEqual(["Acme", "Initech"]);
      expect(body.education).toHaveLength(1);
      expect(body.ats_score).toEqual(expect.any(Number));
    });
  });

  describe("alt-text", () => {
    it("base64 (concise) and a data: URL (detailed): the model's text as the alt text", async () => {
      const concise = await generate("alt-text", { image: png.toString("base64") });
      expect(concise.status).toBe(200);
      expect(concise.body).toMatchObject({ alt_text: "x", style: "concise", provider: "openai" });
      const detailed = await generate("alt-text", {
        image: `data:image/png;base64,${png.toString("base64")}`,
        style: "detailed",
        provider: "xai",
      });
      expect(detailed.status).toBe(200);
      expect(detailed.body).toMatchObject({ alt_text: "x", style: "detailed", provider: "xai" });
    });
  });

  describe("story", () => {
    const graphOnly = (warnings: string[]) => {
      expect(warnings.length).toBeGreaterThan(0);
      // The node count is in the schema: what is left is the graph, which no schema can say.
      for (const w of warnings) expect(w).not.toMatch(/ nodes, this one has /);
    };

    it("Form A and Form B: the band's node count from the schema; the graph's rules as warnings after one repair turn", async () => {
      const a = await generate("story", { prompt: "A cat at sea", length: "short" });
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ complexity: "simple", length: "short", provider: "xai" });
      expect(a.body.nodes).toHaveLength(5);
      graphOnly(a.body.warnings);
      expect(a.calls).toHaveLength(2);
      expect(a.calls[0]!.schema!.properties!.nodes).toMatchObject({ minItems: 5, maxItems: 8 });

      const b = await generate("story", { description: "A lighthouse keeper", complexity: "complex" });
      expect(b.status).toBe(200);
      expect(b.body.nodes).toHaveLength(20);
      graphOnly(b.body.warnings);
    });

    it("meters both turns of a story answered with warnings", async () => {
      const { status, calls } = await generate("story", { description: "A storm", complexity: "medium" });
      expect(status).toBe(200);
      await t.gw.rt.meter.flush();
      const events = await t.gw.rt.db.prisma.usageEvent.findMany({
        where: { keyId: t.keyId, route: "/v1/generate/story" },
        orderBy: { id: "asc" },
      });
      const prompt = calls.reduce((n, c) => n + (JSON.stringify(c.body.messages).length >> 2), 0);
      expect(events.at(-1)).toMatchObject({ provider: "xai", promptTokens: prompt, completionTokens: 14 });
    });

    it("strict: true turns the rules still broken into a 502 naming them", async () => {
      const { status, body, calls } = await generate("story", { description: "A storm", strict: true });
      expect(status).toBe(502);
      expect(body.error).toMatch(
        /^xai did not produce a valid story after a repair attempt: .*node ids must be unique/,
      );
      expect(calls).toHaveLength(2);
    });
  });

  it("/openapi.json holds no safe-integer bounds and documents strict and warnings", async () => {
    const text = await (await t.get("/openapi.json", false)).text();
    expect(text).not.toContain(SAFE_BOUND);
    const doc = JSON.parse(text) as {
      paths: Record<string, { post: { requestBody: unknown; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    // Named schemas (Story, Resume) are referenced: read them where they are defined.
    const inline = (schema: unknown) =>
      JSON.stringify(schema).replace(/\{"\$ref":"#\/components\/schemas\/(\w+)"\}/g, (_, name: string) =>
        JSON.stringify(doc.components.schemas[name]),
      );
    for (const path of ["story", "itinerary", "lesson-plan", "business-plan", "resume"]) {
      const op = doc.paths[`/v1/generate/${path}`]!.post;
      expect(inline(op.requestBody), path).toContain('"strict"');
      expect(inline(op.responses["200"]), path).toContain('"warnings"');
    }
  });
});
