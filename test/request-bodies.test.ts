import { describe, expect, it } from "vitest";
import { requestDetailView } from "../lib/portal/usage/request-log.ts";
import { RequestLogRetention } from "../lib/usage/retention.ts";
import { startFakeOpenAICompatible, type FakeLlm } from "./fakes/llm.ts";
import { databaseBackends } from "./support/backends.ts";
import { useGateway } from "./support/use-gateway.ts";

const xai = {
  fakes: async (): Promise<[FakeLlm]> => [await startFakeOpenAICompatible({ key: "xai-test", reply: "Kept answer." })],
  env: ([fake]: [FakeLlm]) => ({ XAI_API_KEY: "xai-test", UPSTREAM_XAI_URL: fake.url }),
};

describe.each(databaseBackends)("model calls' bodies in the request log, when the operator keeps them (%s)", (db) => {
  const t = useGateway({ ...xai, db, config: { REQUEST_LOG_BODIES: "true", REQUEST_LOG_BODY_BYTES: "400" } });

  const chat = (path: string, body: object, requestId: string) =>
    t.gw.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": t.key, "x-request-id": requestId },
      body: JSON.stringify(body),
    });
  const conversation = async (requestId: string) =>
    (await requestDetailView(t.gw.rt, { operator: true }, requestId))?.conversation;

  it("keeps a whole call's messages and answer, personal data redacted, read as a conversation before and after the row is written", async () => {
    const res = await chat(
      "/v1/chat/completions",
      { model: "xai/grok-4", messages: [{ role: "user", content: "Keep this for ann@example.com." }] },
      "bodies-whole",
    );
    expect(res.status).toBe(200);
    await res.text();
    // The provider was sent the address (the key has no guardrail policy); the log shows a placeholder.
    expect(JSON.stringify(t.fakes[0].requests.at(-1)!.body)).toContain("ann@example.com");
    const expected = { turns: [{ role: "user", text: "Keep this for [EMAIL_1]." }], answer: "Kept answer." };
    expect(await conversation("bodies-whole")).toMatchObject(expected);
    await t.gw.rt.meter.flush();
    expect(await conversation("bodies-whole")).toMatchObject(expected);
    // Only whoever may see the request sees them: another user's view has no such request.
    expect(await requestDetailView(t.gw.rt, { owner: "someone-else" }, "bodies-whole")).toBeNull();
  });

  it("gathers a streamed answer from the events the caller was sent", async () => {
    const res = await chat(
      "/v1/llm/chat",
      { stream: true, messages: [{ role: "user", content: "Stream this." }] },
      "bodies-stream",
    );
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    await res.text();
    await t.gw.rt.meter.flush();
    const kept = await conversation("bodies-stream");
    expect(kept).toMatchObject({ turns: [{ role: "user", text: "Stream this." }], answer: "Kept answer." });
    expect(kept!.response).toMatch(/^data: /);
  });

  it("cuts a body past the cap and says so, keeps nothing for a call that is not a model call, and sweeps bodies with the log", async () => {
    const long = "x".repeat(1000);
    await (
      await chat(
        "/v1/chat/completions",
        { model: "xai/grok-4", messages: [{ role: "user", content: long }] },
        "bodies-long",
      )
    ).text();
    await (await t.gw.request("/v1/key", { headers: { "x-api-key": t.key, "x-request-id": "bodies-none" } })).text();
    await t.gw.rt.meter.flush();
    const cut = await conversation("bodies-long");
    expect(cut!.request).toMatch(/\n… \[cut here: 1,0\d\d bytes in all\]$/);
    expect(Buffer.byteLength(cut!.request.split("\n…")[0]!)).toBe(400);
    expect(await conversation("bodies-none")).toBeNull();

    expect(await t.gw.rt.db.prisma.requestBody.count()).toBe(3);
    await new RequestLogRetention(t.gw.rt.db, { days: 1 }).sweep(new Date(Date.now() + 2 * 86_400_000));
    expect(await t.gw.rt.db.prisma.requestBody.count()).toBe(0);
  });
});

describe("model calls' bodies by default", () => {
  const t = useGateway(xai);

  it("are not kept: the request log holds metadata only", async () => {
    const res = await t.post("/v1/chat/completions", {
      model: "xai/grok-4",
      messages: [{ role: "user", content: "Not kept." }],
    });
    const id = res.headers.get("x-request-id")!;
    await res.text();
    await t.gw.rt.meter.flush();
    expect((await requestDetailView(t.gw.rt, { operator: true }, id))?.conversation).toBeNull();
    expect(await t.gw.rt.db.prisma.requestBody.count()).toBe(0);
  });
});
