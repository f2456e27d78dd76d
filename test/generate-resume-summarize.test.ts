import { describe, expect, it } from "vitest";
import { atsScore } from "../lib/api/generate/ats-score.ts";
import { CHUNK_CHARS } from "../lib/api/utils/text/summarize.ts";
import { splitIntoChunks } from "../lib/api/utils/text/chunks.ts";
import { startFakeResearchLlm, type FakeRequest, type FakeResearchLlm, type FakeTurn } from "./fakes/research-llm.ts";
import { useGateway } from "./support/use-gateway.ts";

// /v1/generate/resume (both forms) and /v1/utils/text/summarize against the fake xai:
// validation and the repair turn, the ATS score's rule, max_words, chunking and metering.

const formB = {
  name: "Ada Lovelace",
  title: "Backend Engineer",
  summary: "Builds payment systems.",
  experience: [
    { title: "Senior Engineer", company: "Acme", dates: "2019–2024", highlights: ["Cut latency 40%", "Led 5"] },
    { title: "Engineer", company: "Initech", dates: "2015–2019", highlights: ["Wrote the billing service"] },
  ],
  education: [{ degree: "BSc Computer Science", institution: "UCL", year: 2015 }],
  skills: ["Go", "PostgreSQL", "Kubernetes"],
  contact: "ada@example.com",
};

/** A record that satisfies Form B's rules for `formB`; the model's own ats_score must be ignored. */
const goodRecord = (keywords = ["payments", "Kubernetes"]) => ({
  header: { name: "Ada Lovelace", title: "Backend Engineer", contact: "ada@example.com" },
  professional_summary: "Backend engineer with nine years building payment systems in Go and PostgreSQL at scale.",
  experience: [
    {
      title: "Senior Engineer",
      company: "Acme",
      dates: "2019–2024",
      bullets: ["Cut payments API latency by 40% with caching", "Led a team of 5 engineers"],
    },
    {
      title: "Engineer",
      company: "Initech",
      dates: "2015–2019",
      bullets: ["Wrote the billing service in Go", "Ran 3 Kubernetes clusters"],
    },
  ],
  education: [{ degree: "BSc Computer Science", institution: "UCL", year: "2015", honors: "" }],
  skills: { technical: ["Go", "PostgreSQL", "Kubernetes"], soft: ["Mentoring"] },
  keywords,
  ats_score: 99,
});

const isRepair = (req: FakeRequest) =>
  String(req.body.messages.at(-1)?.content ?? "").startsWith("Your answer cannot be used");
const lastUser = (req: { body: FakeRequest["body"] }) => String(req.body.messages.at(-1)?.content ?? "");

describe("/v1/generate/resume and /v1/utils/text/summarize over the fake provider", () => {
  let script: ((req: FakeRequest) => FakeTurn | undefined) | undefined;
  let llm: FakeResearchLlm;
  const t = useGateway({
    fakes: async () => [(llm = await startFakeResearchLlm({ key: "xai-test", script: (req) => script?.(req) }))],
    env: () => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: llm.url, ANTHROPIC_API_KEY: undefined }),
    key: { minute: 1000, day: 100_000, concurrency: 20 },
  });
  const since = () => {
    const from = llm.requests.length;
    return () => llm.requests.slice(from);
  };
  const answer = (content: unknown, usage = { prompt_tokens: 100, completion_tokens: 20 }): FakeTurn => ({
    content: typeof content === "string" ? content : JSON.stringify(content),
    usage,
  });
  const eventsFor = async (route: string) => {
    await t.gw.rt.meter.flush();
    return t.gw.rt.db.prisma.usageEvent.findMany({ where: { keyId: t.keyId, route }, orderBy: { id: "asc" } });
  };

  describe("resume", () => {
    it("Form B answers the resume record with the gateway's ats_score, not the model's", async () => {
      script = () => answer(goodRecord());
      const calls = since();
      const res = await t.post("/v1/generate/resume", { ...formB, style: "executive" });
      expect(res.status).toBe(200);
      const body = await res.json();
      const { ats_score: _ignored, ...record } = goodRecord();
      expect(body).toEqual({ ...record, ats_score: atsScore(record, "Backend Engineer"), provider: "xai" });
      expect(body.ats_score).not.toBe(99);
      expect(calls()).toHaveLength(1);
      expect(calls()[0]!.body.messages[0]!.content).toMatch(/ATS-friendly/);
      expect(lastUser(calls()[0]!)).toMatch(/Tone: executive/);
      expect(lastUser(calls()[0]!)).toContain("exactly 2 entries");
    });

    it("scores by the rule: keywords the resume does not contain lower the score deterministically", async () => {
      const scores: number[] = [];
      for (const keywords of [
        ["payments", "Kubernetes"],
        ["Terraform", "Rust"],
        ["Terraform", "Rust"],
      ]) {
        script = () => answer(goodRecord(keywords));
        scores.push((await (await t.post("/v1/generate/resume", formB)).json()).ats_score);
      }
      // backend, engineer, payment, kubernet all found: 70 + 30; then 2 of 4 terms found: 35 + 30.
      expect(scores).toEqual([100, 65, 65]);
    });

    it("Form A answers Markdown (default) or plain text laid out from the validated record", async () => {
      script = () => answer(goodRecord());
      const calls = since();
      const text = "Nine years at Acme and Initech building payment systems. ada@example.com";
      const md = await t.post("/v1/generate/resume", { experience: text, name: "Ada Lovelace", skills: "Go, SQL" });
      expect(md.status).toBe(200);
      const mdBody = await md.json();
      expect(mdBody).toMatchObject({ format: "markdown", provider: "xai", ats_score: expect.any(Number) });
      expect(Object.keys(mdBody).sort()).toEqual(["ats_score", "format", "provider", "resume"]);
      expect(mdBody.resume).toMatch(/^# Ada Lovelace\n/);
      expect(mdBody.resume).toContain("### Senior Engineer, Acme\n*2019–2024*\n\n- Cut payments API latency");
      expect(lastUser(calls()[0]!)).toContain(text);
      expect(lastUser(calls()[0]!)).toContain("Skills: Go, SQL");

      const plain = await (
        await t.post("/v1/generate/resume", { experience: text, format: "text", target_role: "Data Engineer" })
      ).json();
      expect(plain.format).toBe("text");
      expect(plain.resume).toMatch(/^Ada Lovelace\nBackend Engineer \| ada@example.com\n\nSUMMARY\n/);
      expect(plain.resume).not.toMatch(/[#*]/);
      const { ats_score: _ignored, ...record } = goodRecord();
      expect(plain.ats_score).toBe(atsScore(record, "Data Engineer"));
    });

    it("repairs an answer that is not JSON: the second turn carries the problem", async () => {
      script = (req) => (isRepair(req) ? answer(goodRecord()) : answer("Here is your resume: Ada, engineer."));
      const calls = since();
      const res = await t.post("/v1/generate/resume", formB);
      expect(res.status).toBe(200);
      expect((await res.json()).header.name).toBe("Ada Lovelace");
      expect(calls()).toHaveLength(2);
      expect(lastUser(calls()[1]!)).toMatch(/not JSON|does not match the schema/);
      expect(
        calls()[1]!.body.messages.some((m) => m.role === "assistant" && /Here is your resume/.test(m.content!)),
      ).toBe(true);
    });

    it("repairs a rule-breaking answer (a role dropped), metering both turns; the name is fixed without asking", async () => {
      const broken = { ...goodRecord(), header: { ...goodRecord().header, name: "A. Lovelace" } };
      broken.experience = broken.experience.slice(0, 1);
      script = (req) =>
        isRepair(req)
          ? answer(goodRecord(), { prompt_tokens: 300, completion_tokens: 40 })
          : answer(broken, { prompt_tokens: 200, completion_tokens: 30 });
      const calls = since();
      const res = await t.post("/v1/generate/resume", formB);
      expect(res.status).toBe(200);
      const repair = lastUser(calls()[1]!);
      expect(repair).not.toContain("header.name");
      expect(repair).toContain("experience must have exactly 2 entries (one per input role, in order), not 1");
      const event = (await eventsFor("/v1/generate/resume")).at(-1)!;
      expect(event).toMatchObject({ provider: "xai", promptTokens: 500, completionTokens: 70 });
    });

    it("answers 502 naming the problem when the repair is still bad", async () => {
      const { professional_summary: _dropped, ...missing } = goodRecord();
      script = () => answer(missing);
      const calls = since();
      const res = await t.post("/v1/generate/resume", formB);
      expect(res.status).toBe(502);
      expect((await res.json()).error).toMatch(
        /did not produce a valid resume after a repair attempt: .*professional_summary/,
      );
      expect(calls()).toHaveLength(2);

      const empty = goodRecord();
      empty.experience[1]!.bullets = [];
      script = () => answer(empty);
      const res2 = await t.post("/v1/generate/resume", formB);
      expect(res2.status).toBe(502);
      expect((await res2.json()).error).toMatch(/experience\.1\.bullets/);
    });

    it("answers 400 naming the field for bodies of neither form and out-of-range enums", async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{}, /experience: give experience as text \(Form A\) or name/],
        [{ experience: [{ title: "x" }] }, /name: name is required in Form B/],
        [{ ...formB, style: "casual" }, /style: .*"professional"\|"creative"\|"technical"\|"executive"/],
        [{ experience: "x", format: "pdf" }, /format: .*"markdown"\|"text"/],
        [{ experience: "" }, /experience/],
        [{ experience: "x", provider: "nope" }, /unknown provider 'nope'/],
      ];
      const calls = since();
      for (const [body, message] of cases) {
        const res = await t.post("/v1/generate/resume", body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).error).toMatch(message);
      }
      expect(calls()).toHaveLength(0);
    });
  });

  describe("summarize", () => {
    const overshoot = "The first point has six words. The second point adds five more. A third one follows here.";

    it("cuts a paragraph that overshoots max_words at a sentence boundary", async () => {
      script = () => answer(overshoot, { prompt_tokens: 50, completion_tokens: 18 });
      const calls = since();
      const res = await t.post("/v1/utils/text/summarize", { text: "Some text to summarise.", max_words: 12 });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        summary: "The first point has six words. The second point adds five more.",
        style: "paragraph",
        max_words: 12,
        word_count: 12,
        chunks: 1,
        provider: "xai",
        model: expect.any(String),
      });
      expect(calls()).toHaveLength(1);
      expect(lastUser(calls()[0]!)).toMatch(/at most 12 words, as one paragraph/);
      expect(calls()[0]!.body.max_tokens).toBe(224);
      const event = (await eventsFor("/v1/utils/text/summarize")).at(-1)!;
      expect(event).toMatchObject({ provider: "xai", promptTokens: 50, completionTokens: 18 });
    });

    it("bullet style drops whole bullets past max_words and answers '- ' lines", async () => {
      script = () => answer("* Alpha beta gamma delta.\n* Epsilon zeta eta.\n* Theta iota kappa lambda mu.");
      const res = await t.post("/v1/utils/text/summarize", { text: "Text.", max_words: 10, style: "bullet" });
      const body = await res.json();
      expect(body).toMatchObject({ summary: "- Alpha beta gamma delta.\n- Epsilon zeta eta.", word_count: 7 });
      expect(body.style).toBe("bullet");
    });

    it("summarises a long text in chunks, then combines them, metering every call", async () => {
      const paragraph = (i: number) => `Paragraph ${i}. ` + "The committee discussed the budget at length. ".repeat(60);
      const text = Array.from({ length: 12 }, (_, i) => paragraph(i)).join("\n\n");
      const expected = splitIntoChunks(text, CHUNK_CHARS).length;
      expect(expected).toBeGreaterThan(2);
      script = (req) => {
        const part = /^Part (\d+) of/.exec(req.prompt)?.[1];
        return part
          ? answer(`Summary of part ${part}.`, { prompt_tokens: 1000, completion_tokens: 10 })
          : answer("The committee discussed the budget in every part.", { prompt_tokens: 80, completion_tokens: 9 });
      };
      const calls = since();
      const res = await t.post("/v1/utils/text/summarize", { text, max_words: 50 });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        summary: "The committee discussed the budget in every part.",
        chunks: expected,
        word_count: 8,
      });
      const prompts = calls().map((c) => c.body.messages.find((m) => m.role === "user")!.content!);
      expect(prompts).toHaveLength(expected + 1);
      expect(prompts.slice(0, expected).every((p) => new RegExp(`^Part \\d+ of ${expected} `).test(p))).toBe(true);
      expect(new Set(prompts.slice(0, expected).map((p) => /^Part (\d+)/.exec(p)![1])).size).toBe(expected);
      const combine = prompts.at(-1)!;
      expect(combine).toMatch(new RegExp(`^Below are summaries of the ${expected} consecutive parts`));
      for (let i = 1; i <= expected; i++) expect(combine).toContain(`[Part ${i}]\nSummary of part ${i}.`);
      const event = (await eventsFor("/v1/utils/text/summarize")).at(-1)!;
      expect(event).toMatchObject({ promptTokens: 1000 * expected + 80, completionTokens: 10 * expected + 9 });
    });

    it("answers 400 naming the field", async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{}, /text/],
        [{ text: "   " }, /text: text must not be blank/],
        [{ text: "x".repeat(200_001) }, /text: text is limited to 200,000 characters/],
        [{ text: "x", max_words: 5 }, /max_words/],
        [{ text: "x", max_words: 2001 }, /max_words/],
        [{ text: "x", max_words: 10.5 }, /max_words/],
        [{ text: "x", style: "numbered" }, /style: .*"paragraph"\|"bullet"/],
        [{ text: "x", provider: "nope" }, /unknown provider 'nope'/],
      ];
      const calls = since();
      for (const [body, message] of cases) {
        const res = await t.post("/v1/utils/text/summarize", body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect((await res.json()).error).toMatch(message);
      }
      expect(calls()).toHaveLength(0);
    });

    it("answers 502 when the provider answers nothing", async () => {
      script = () => answer("   ");
      const res = await t.post("/v1/utils/text/summarize", { text: "Some text." });
      expect(res.status).toBe(502);
      expect((await res.json()).error).toMatch(/empty summary/);
    });
  });
});
