import https from "node:https";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { testCertificate } from "./fakes/https-site.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import { listen, type Listening } from "./support/listen.ts";
import { useGateway } from "./support/use-gateway.ts";

// Templated generation: alt text, lesson plan, business plan and itinerary against a fake
// provider answering good, malformed and rule-breaking JSON, in both request forms.

const lesson = (overrides: Record<string, unknown> = {}) => ({
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
  ...overrides,
});

const day = (n: number) => ({
  day: n,
  theme: `Day ${n} sights`,
  activities: [{ time: "09:00", activity: "Museum", duration: "2h", cost_estimate: "€15", tips: "Book ahead" }],
  meals: { breakfast: "Café", lunch: "Market", dinner: "Trattoria" },
});
const itinerary = (days: number[]) => ({
  destination: "Rome",
  overview: "Ancient and modern Rome.",
  daily_itinerary: days.map(day),
  practical_info: {
    best_time_to_visit: "Spring",
    transportation: "Metro and walking",
    accommodation_areas: ["Monti"],
    estimated_daily_budget: "€150",
    essential_apps: ["Moovit"],
    etiquette_tips: ["Cover shoulders in churches"],
  },
  must_try: { foods: ["Carbonara"], experiences: ["Vespa tour"], neighborhoods: ["Trastevere"] },
});
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

const plan = (overrides: Record<string, unknown> = {}) => ({
  business_name: "Brewbot",
  executive_summary: "Robotic coffee kiosks.",
  market_analysis: {
    market_size: "$2B",
    target_segments: ["Commuters"],
    trends: ["Automation"],
    opportunities: ["Stations"],
  },
  competitive_analysis: {
    direct_competitors: [
      { name: "Cafe X", strengths: ["Brand"], weaknesses: ["Price"] },
      { name: "Briggo", strengths: ["Tech"], weaknesses: ["Reach"] },
    ],
    competitive_advantage: "Cheaper units",
  },
  business_model: { revenue_streams: ["Coffee sales"], pricing_strategy: "$3 a cup", cost_structure: ["Beans"] },
  operations_plan: {
    key_activities: ["Restocking"],
    resources_needed: ["Vans"],
    milestones: [1, 3, 6, 12].map((month) => ({ month, goal: `Goal at month ${month}` })),
  },
  financial_projections: {
    startup_costs: "$200k",
    monthly_burn: "$20k",
    break_even: "Month 18",
    year_1_revenue: "$150k",
    year_3_revenue: "$2M",
  },
  risk_assessment: [
    { risk: "Breakdowns", mitigation: "Service contracts" },
    { risk: "Permits", mitigation: "Partner with landlords" },
    { risk: "Competition", mitigation: "Lock in sites" },
  ],
  action_plan: { immediate: ["Prototype"], short_term: ["Pilot"], long_term: ["Franchise"] },
  ...overrides,
});

const lastUser = (req: FakeRequest) => String(req.body.messages.filter((m) => m.role === "user").at(-1)?.content);
const isRepair = (req: FakeRequest) => lastUser(req).startsWith("Your answer cannot be used");

/** A tiny image host over HTTPS on loopback: /red.png, /text (not an image), /gone (404). */
async function startImageHost(tlsPair: { key: string; cert: string }, png: Buffer): Promise<Listening<https.Server>> {
  const server = https.createServer({ key: tlsPair.key, cert: tlsPair.cert }, (req, res) => {
    if (req.url === "/red.png") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (req.url === "/text") return res.writeHead(200, { "content-type": "text/plain" }).end("not an image");
    res.writeHead(404).end();
  });
  return listen(server);
}

describe("/v1/generate: alt text, lesson plan, business plan, itinerary", () => {
  let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
  let xai: FakeResearchLlm;
  let openai: FakeResearchLlm;
  let images: Listening<https.Server>;
  let png: Buffer;
  // Filled in once the image host has its port, before the gateway starts: only that origin may be on loopback.
  const config: Record<string, string> = {};
  const t = useGateway({
    fakes: async () => {
      png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } })
        .png()
        .toBuffer();
      const tlsPair = await testCertificate(["images.test"]);
      xai = await startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) });
      openai = await startFakeResearchLlm({ key: "sk-openai", script: (req) => script?.(req) });
      images = await startImageHost(tlsPair, png);
      config.PROXY_ALLOW_PRIVATE_FOR_TESTS = `127.0.0.1:${images.port}`;
      config.UPSTREAM_CA_FILE = tlsPair.caFile;
      return [xai, openai, images];
    },
    env: () => ({
      XAI_API_KEY: "xai-test",
      UPSTREAM_XAI_URL: xai.url,
      OPENAI_API_KEY: "sk-openai",
      UPSTREAM_OPENAI_URL: openai.url,
    }),
    config,
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });
  const since = (llm: () => FakeResearchLlm) => {
    const from = llm().requests.length;
    return () => llm().requests.slice(from);
  };
  async function usageOf(route: string) {
    await t.gw.rt.meter.flush();
    return t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: t.keyId, route } });
  }

  describe("lesson-plan", () => {
    it("Form A: topic, level, minutes → the plan with the duration as sent, tokens metered", async () => {
      script = () => ({ content: JSON.stringify(lesson()), usage: { prompt_tokens: 120, completion_tokens: 80 } });
      const calls = since(() => xai);
      const res = await t.post("/v1/generate/lesson-plan", { topic: "Restaurants", level: "beginner", duration: 45 });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ...lesson(), level: "beginner", duration: 45, provider: "xai" });
      expect(calls()).toHaveLength(1);
      expect(calls()[0]!.model).toBe("grok-4-fast");
      const events = await usageOf("/v1/generate/lesson-plan");
      expect(events.at(-1)).toMatchObject({ provider: "xai", promptTokens: 120, completionTokens: 80 });
    });

    it("Form B: CEFR level, duration and focus reach the prompt; defaults B1, 60min, speaking", async () => {
      script = () => ({ content: JSON.stringify(lesson()) });
      const calls = since(() => xai);
      const res = await t.post("/v1/generate/lesson-plan", {
        topic: "Travel",
        level: "C1",
        duration: "90min",
        focus: "grammar",
      });
      expect(await res.json()).toMatchObject({ level: "C1", duration: "90min", title: "Ordering food" });
      const prompt = String(calls()[0]!.body.messages.find((m) => m.role === "user")!.content);
      expect(prompt).toContain("CEFR C1");
      expect(prompt).toContain("90 minutes");
      expect(prompt).toContain("focusing on grammar");
      const defaults = await t.post("/v1/generate/lesson-plan", { topic: "Travel", focus: "speaking" });
      expect(await defaults.json()).toMatchObject({ level: "B1", duration: "60min" });
    });

    it("a plan missing an outline section is repaired on the second turn", async () => {
      const { production: _, ...partial } = lesson().outline;
      script = (req) => ({ content: JSON.stringify(isRepair(req) ? lesson() : lesson({ outline: partial })) });
      const calls = since(() => xai);
      const res = await t.post("/v1/generate/lesson-plan", { topic: "Weather" });
      expect(res.status).toBe(200);
      expect((await res.json()).outline.production).toBe("20 min: restaurant role play");
      expect(calls()).toHaveLength(2);
      expect(lastUser({ body: calls()[1]!.body } as FakeRequest)).toContain("outline.production");
    });

    it("an empty section breaks the rules and is repaired; still empty after repair → warnings, or 502 with strict", async () => {
      const blank = lesson({ outline: { ...lesson().outline, wrap_up: " " }, objectives: ["Only one"] });
      script = (req) => ({ content: JSON.stringify(isRepair(req) ? lesson() : blank) });
      const repaired = await t.post("/v1/generate/lesson-plan", { topic: "Weather" });
      expect(repaired.status).toBe(200);
      expect((await repaired.json()).warnings).toBeUndefined();

      script = () => ({ content: JSON.stringify(blank) });
      const warned = await t.post("/v1/generate/lesson-plan", { topic: "Weather" });
      expect(warned.status).toBe(200);
      expect(await warned.json()).toMatchObject({
        objectives: ["Only one"],
        warnings: [
          "outline.wrap_up is empty: describe that stage's activities and minutes",
          "objectives needs at least 2 learning objectives",
        ],
      });

      const res = await t.post("/v1/generate/lesson-plan", { topic: "Weather", strict: true });
      expect(res.status).toBe(502);
      const { error } = await res.json();
      expect(error).toContain("outline.wrap_up is empty");
      expect(error).toContain("objectives needs at least 2");
    });

    it("400 naming the field and its allowed values", async () => {
      const bad = async (body: unknown) => {
        const res = await t.post("/v1/generate/lesson-plan", body);
        expect(res.status).toBe(400);
        return (await res.json()).error as string;
      };
      expect(await bad({ topic: "x", level: "D1", focus: "grammar" })).toMatch(
        /level: .*"A1"\|"A2"\|"B1"\|"B2"\|"C1"\|"C2"/,
      );
      expect(await bad({ topic: "x", duration: "120min" })).toMatch(/duration: .*"30min"\|"45min"\|"60min"\|"90min"/);
      expect(await bad({ topic: "x", focus: "dancing" })).toMatch(/focus: .*"grammar"/);
      expect(await bad({ topic: "x", duration: 2.5 })).toMatch(/duration/);
      expect(await bad({ level: "B1" })).toMatch(/topic/);
    });
  });

  describe("itinerary", () => {
    it("Form A: days → exactly that many days, duration = days", async () => {
      script = () => ({ content: JSON.stringify(itinerary(range(4))) });
      const res = await t.post("/v1/generate/itinerary", { destination: "Rome", days: 4, interests: "food, history" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ ...itinerary(range(4)), duration: 4, provider: "xai" });
    });

    it("Form B: duration defaults to 3; travelers, pace and interests reach the prompt", async () => {
      script = () => ({ content: JSON.stringify(itinerary(range(3))) });
      const calls = since(() => xai);
      const res = await t.post("/v1/generate/itinerary", {
        destination: "Rome",
        interests: ["art", "food"],
        travelers: "family",
        pace: "relaxed",
      });
      expect(await res.json()).toMatchObject({ duration: 3, daily_itinerary: [{ day: 1 }, { day: 2 }, { day: 3 }] });
      const prompt = String(calls()[0]!.body.messages.find((m) => m.role === "user")!.content);
      expect(prompt).toContain("3-day trip to Rome on a moderate budget for a family at a relaxed pace");
      expect(prompt).toContain("art, food");
    });

    it("the wrong day count is repaired: the model is told how many days it gave and how many to give", async () => {
      script = (req) => ({ content: JSON.stringify(itinerary(isRepair(req) ? range(5) : range(3))) });
      const calls = since(() => xai);
      const res = await t.post("/v1/generate/itinerary", { destination: "Rome", duration: 5 });
      expect(res.status).toBe(200);
      expect((await res.json()).daily_itinerary).toHaveLength(5);
      expect(lastUser({ body: calls()[1]!.body } as FakeRequest)).toContain(
        "daily_itinerary has 3 days; it must have exactly 5",
      );
    });

    it("days out of order are put in order without a repair turn; a count still wrong → warnings, or 502 with strict", async () => {
      script = () => ({ content: JSON.stringify(itinerary([1, 3, 2])) });
      const calls = since(() => xai);
      const ordered = await t.post("/v1/generate/itinerary", { destination: "Rome", days: 3 });
      expect(ordered.status).toBe(200);
      expect(await ordered.json()).toEqual({ ...itinerary(range(3)), duration: 3, provider: "xai" });
      expect(calls()).toHaveLength(1);

      script = () => ({ content: JSON.stringify(itinerary(range(2))) });
      const short = await t.post("/v1/generate/itinerary", { destination: "Rome", days: 3 });
      expect(short.status).toBe(200);
      expect(await short.json()).toMatchObject({
        daily_itinerary: [{ day: 1 }, { day: 2 }],
        warnings: ["daily_itinerary has 2 days; it must have exactly 3"],
      });
      const res = await t.post("/v1/generate/itinerary", { destination: "Rome", days: 3, strict: true });
      expect(res.status).toBe(502);
      expect((await res.json()).error).toContain("daily_itinerary has 2 days; it must have exactly 3");
    });

    it("400 for days out of 1-30, a missing days count, or a budget of the other form", async () => {
      const bad = async (body: unknown) => {
        const res = await t.post("/v1/generate/itinerary", body);
        expect(res.status).toBe(400);
        return (await res.json()).error as string;
      };
      expect(await bad({ destination: "Rome", days: 31 })).toMatch(/days/);
      expect(await bad({ destination: "Rome", days: 0 })).toMatch(/days/);
      expect(await bad({ destination: "Rome", duration: 40 })).toMatch(/duration/);
      expect(await bad({ destination: "Rome", days: 2, budget: "moderate" })).toMatch(
        /budget: .*"budget"\|"mid-range"\|"luxury"/,
      );
      expect(await bad({ destination: "Rome", budget: "mid-range" })).toMatch(
        /budget: .*"budget"\|"moderate"\|"luxury"/,
      );
      expect(await bad({ destination: "Rome", pace: "sprint" })).toMatch(/pace: .*"relaxed"\|"moderate"\|"packed"/);
      expect(await bad({ days: 2 })).toMatch(/destination/);
    });
  });

  describe("business-plan", () => {
    it("Form A and Form B answer the plan record; Form B's stage and location reach the prompt", async () => {
      script = () => ({ content: JSON.stringify(plan()) });
      const a = await t.post("/v1/generate/business-plan", { idea: "Robot coffee", target_market: "Commuters" });
      expect(a.status).toBe(200);
      expect(await a.json()).toEqual({ ...plan(), provider: "xai" });

      const calls = since(() => xai);
      const b = await t.post("/v1/generate/business-plan", {
        idea: "Robot coffee",
        location: "Berlin",
        stage: "growth",
      });
      expect(b.status).toBe(200);
      const prompt = String(calls()[0]!.body.messages.find((m) => m.role === "user")!.content);
      expect(prompt).toContain("Location: Berlin");
      expect(prompt).toContain("Stage: growth");
    });

    it("malformed output (not JSON, then a missing field) is repaired; still bad → 502", async () => {
      script = (req) => ({ content: isRepair(req) ? JSON.stringify(plan()) : "Here is your plan: Brewbot!" });
      const calls = since(() => xai);
      expect((await t.post("/v1/generate/business-plan", { idea: "Robot coffee" })).status).toBe(200);
      expect(calls()).toHaveLength(2);

      const { risk_assessment: _, ...missing } = plan();
      script = () => ({ content: JSON.stringify(missing) });
      const res = await t.post("/v1/generate/business-plan", { idea: "Robot coffee" });
      expect(res.status).toBe(502);
      expect((await res.json()).error).toContain("risk_assessment");
    });

    it("comprehensive detail asks for more; too few risks is a rule break: warnings, or 502 with strict", async () => {
      script = (req) => ({ content: JSON.stringify(isRepair(req) ? plan({ risk_assessment: [] }) : plan()) });
      const warned = await t.post("/v1/generate/business-plan", {
        idea: "Robot coffee",
        detail_level: "comprehensive",
      });
      expect(warned.status).toBe(200);
      const { warnings } = await warned.json();
      expect(warnings).toContain("competitive_analysis.direct_competitors needs at least 3");
      expect(warnings).toContain("risk_assessment needs at least 5 risks");

      const res = await t.post("/v1/generate/business-plan", {
        idea: "Robot coffee",
        detail_level: "comprehensive",
        strict: true,
      });
      expect(res.status).toBe(502);
      const { error } = await res.json();
      expect(error).toContain("direct_competitors needs at least 3");
      expect(error).toContain("risk_assessment needs at least 5 risks");
    });

    it("400 for a stage or detail level out of range", async () => {
      const res = await t.post("/v1/generate/business-plan", { idea: "x", stage: "unicorn" });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/stage: .*"idea"\|"startup"\|"growth"\|"expansion"/);
      const detail = await t.post("/v1/generate/business-plan", { idea: "x", detail_level: "epic" });
      expect((await detail.json()).error).toMatch(/detail_level: .*"brief"\|"standard"\|"comprehensive"/);
    });

    it("provider picks another provider; an unknown one is a 400", async () => {
      script = () => ({ content: JSON.stringify(plan()) });
      const res = await t.post("/v1/generate/business-plan", { idea: "Robot coffee", provider: "openai" });
      expect(await res.json()).toMatchObject({ provider: "openai", business_name: "Brewbot" });
      expect((await t.post("/v1/generate/business-plan", { idea: "x", provider: "nope" })).status).toBe(400);
    });
  });

  describe("alt-text", () => {
    type Part = { type: string; text?: string; image_url?: { url: string } };
    const sentParts = (calls: FakeResearchLlm["requests"]) =>
      calls.at(-1)!.body.messages.find((m) => m.role === "user")!.content as unknown as Part[];

    it("base64: a concise alt text from the default vision provider (openai), capped at 125 characters", async () => {
      const long = `A bright red square ${"with a very long description ".repeat(8)}`;
      script = () => ({ content: `"${long}"`, usage: { prompt_tokens: 300, completion_tokens: 40 } });
      const calls = since(() => openai);
      const res = await t.post("/v1/generate/alt-text", { image: png.toString("base64"), context: "a logo" });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ style: "concise", provider: "openai", model: "gpt-4.1-mini" });
      expect(body.alt_text.length).toBeLessThanOrEqual(125);
      // Cut after a whole word, quotes gone.
      expect(long.startsWith(`${body.alt_text} `)).toBe(true);
      const parts = sentParts(calls());
      expect(parts[0]!.text).toContain("a logo");
      expect(parts[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
      const events = await usageOf("/v1/generate/alt-text");
      expect(events.at(-1)).toMatchObject({ provider: "openai", promptTokens: 300, completionTokens: 40 });
    });

    it("a data: URL with the detailed or functional style; provider xai", async () => {
      script = () => ({ content: "Alt text: Opens the shopping cart." });
      const calls = since(() => xai);
      const image = `data:image/png;base64,${png.toString("base64")}`;
      const res = await t.post("/v1/generate/alt-text", { image, style: "functional", provider: "xai" });
      expect(await res.json()).toEqual({
        alt_text: "Opens the shopping cart.",
        style: "functional",
        provider: "xai",
        model: "grok-4-fast",
      });
      expect(sentParts(calls())[0]!.text).toContain("functional alt text");
      script = () => ({ content: "A red square filling the frame. ".repeat(8) });
      const detailed = await (await t.post("/v1/generate/alt-text", { image, style: "detailed" })).json();
      expect(detailed.alt_text.length).toBeGreaterThan(125);
    });

    it("a URL is fetched by the gateway and sent to the provider as bytes, never as the URL", async () => {
      script = () => ({ content: "A red square." });
      const calls = since(() => openai);
      const res = await t.post("/v1/generate/alt-text", { image: `${images.url}/red.png` });
      expect(res.status).toBe(200);
      expect((await res.json()).alt_text).toBe("A red square.");
      const url = sentParts(calls())[1]!.image_url!.url;
      expect(url).toBe(`data:image/png;base64,${png.toString("base64")}`);
    });

    it("the proxy's rules for URLs: https only, no private addresses, an image or a clear error", async () => {
      const status = async (body: unknown) => (await t.post("/v1/generate/alt-text", body)).status;
      expect(await status({ image: `http://127.0.0.1:${images.port}/red.png` })).toBe(400);
      // Loopback on a port the test exemption does not name is refused before any connection.
      expect(await status({ image: `https://127.0.0.1:${images.port + 1}/red.png` })).toBe(403);
      expect(await status({ image: "https://169.254.169.254/latest/meta-data/" })).toBe(403);
      const notImage = await t.post("/v1/generate/alt-text", { image: `${images.url}/text` });
      expect(notImage.status).toBe(400);
      expect((await notImage.json()).error).toContain("did not return a PNG, JPEG, GIF or WebP image");
      expect(await status({ image: `${images.url}/gone` })).toBe(502);
    });

    it("400 for a bad style, no image, or bytes that are not an image", async () => {
      const res = await t.post("/v1/generate/alt-text", { image: png.toString("base64"), style: "poetic" });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/style: .*"concise"\|"detailed"\|"functional"/);
      expect((await t.post("/v1/generate/alt-text", { context: "x" })).status).toBe(400);
      expect((await t.post("/v1/generate/alt-text", { image: "bm90IGFuIGltYWdl" })).status).toBe(400);
    });

    it("a provider failure is the provider's error, not an empty alt text", async () => {
      script = () => ({ status: 500 });
      expect((await t.post("/v1/generate/alt-text", { image: png.toString("base64") })).status).toBe(502);
      script = () => ({ content: '""' });
      expect((await t.post("/v1/generate/alt-text", { image: png.toString("base64") })).status).toBe(502);
    });
  });
});
