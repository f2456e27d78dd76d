import { describe, expect, it } from "vitest";
import type { Runtime } from "../gateway/runtime/runtime.ts";
import type { runOnPool } from "../gateway/runtime/worker-pool.ts";
import { toPolicy } from "./policy.ts";
import { guardOnThread } from "./prompt-on-thread.ts";
import { guardPrompt, promptSlots } from "./prompt-guard.ts";
import { guardLocally, isLongPrompt, OFFLOAD_CHARS } from "./prompt-offload.ts";

// The pool itself (threads, limits) is tested in lib/gateway/runtime; here, what goes to it and what
// comes back: the job runs guardOnThread on a structured clone, as lib/workers/heavy-tasks.ts has a thread do.
const sent: unknown[] = [];
const onPool = (async (_rt: Runtime, _task: unknown, args: { name: string; spec: never; body: never }) => {
  sent.push(args);
  const { name, spec, body } = structuredClone(args);
  return guardOnThread(name, spec, body);
}) as unknown as typeof runOnPool;

const mask = toPolicy("mask", { checks: ["pii", "words"], action: "redact", words: { terms: ["falcon"] } });
const rt = {} as Runtime;
const long = (head: string, tail: string) => ({
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: `${head} ${"lorem ipsum ".repeat(OFFLOAD_CHARS / 12)} ${tail}` },
  ],
});

describe("a long prompt's checks on a worker thread", () => {
  it("counts a prompt's characters across its texts, against the threshold", () => {
    expect(isLongPrompt(promptSlots({ messages: [{ role: "user", content: "short" }] }))).toBe(false);
    expect(
      isLongPrompt(promptSlots({ messages: [{ role: "user", content: "a".repeat(20) }], prompt: "b".repeat(20) }), 30),
    ).toBe(true);
  });

  it("checks a short prompt in place, with nothing sent to the pool", () => {
    sent.length = 0;
    const body = { messages: [{ role: "user", content: "Mail ann@example.com" }] };
    const guard = guardLocally(rt, mask, body, onPool);
    expect(guard).not.toBeInstanceOf(Promise);
    expect(sent).toHaveLength(0);
    expect(body.messages[0]!.content).toBe("Mail [EMAIL_1]");
  });

  it("sends a long one to the pool with its policy as declared, and writes back what the checks left", async () => {
    sent.length = 0;
    const body = long("Mail ann@example.com about Falcon", "or call +44 20 7946 0958");
    const inPlace = structuredClone(body);
    const expected = guardPrompt(mask, inPlace);
    const guard = await guardLocally(rt, mask, body, onPool);
    expect(sent).toEqual([{ name: "mask", spec: mask.spec, body: expect.any(Object) }]);
    // The same decisions, placeholders and rewritten texts as checking in place gives.
    expect(guard).toEqual(expected);
    expect(body).toEqual(inPlace);
    expect(body.messages[1]!.content).toMatch(/^Mail \[EMAIL_1\] about \[REDACTED\] .* or call \[PHONE_1\]$/s);
    expect(guard.values.get("[PHONE_1]")).toBe("+44 20 7946 0958");
  });

  it("keeps a block's refusal, with the prompt left as it was", async () => {
    const block = toPolicy("stop", { checks: ["pii"], action: "block" });
    const body = long("Card 4111 1111 1111 1111", "end");
    const before = structuredClone(body);
    const guard = await guardLocally(rt, block, body, onPool);
    expect(guard.refusal).toMatch(/personal data \(card\)/);
    expect(body).toEqual(before);
  });
});
