// What keeping a model call's bodies for the request log (REQUEST_LOG_BODIES) costs the call on the CPU,
// in process: the capture's steps (the request kept as validated, the answer kept as sent, the bodies
// handed to the meter) against the same call with the setting off (no capture made), timed in the same
// rounds, alternating order. A chat of about 0.9 KB and its 0.8 KB answer, the default cap. Writing the
// row happens later, in the meter's batch, off the request's path. The target is the difference, <= 10 µs.
import { BodyCapture } from "../lib/usage/body-capture.ts";
import { cpuPerCall, median, report, spread } from "./results.ts";

const ROUNDS = Number(process.env.BENCH_BODY_ROUNDS ?? 12);
const CALLS = 200_000;
const CAP = 16_384;

const request = {
  model: "xai/grok-4",
  messages: [
    { role: "system", content: "Be brief. ".repeat(20) },
    { role: "user", content: "Tell me about the weather in Paris today. ".repeat(15) },
  ],
};
const answer = JSON.stringify({
  id: "chatcmpl-1",
  choices: [{ index: 0, message: { role: "assistant", content: "Sunny. ".repeat(100) }, finish_reason: "stop" }],
  usage: { prompt_tokens: 210, completion_tokens: 100 },
});

let kept = 0;
/** The pipeline's steps of one model call for the capture, with the setting on or off. */
const call = (on: { maxBytes: number } | undefined) => () => {
  const capture = on && new BodyCapture(on.maxBytes);
  if (capture) capture.keepRequest(request);
  if (capture) capture.keepAnswer(answer);
  if (capture?.bodies()) kept++;
};
const runs = { off: call(undefined), on: call({ maxBytes: CAP }) };

cpuPerCall(CALLS, runs.off);
cpuPerCall(CALLS, runs.on);
const cpu = { off: [] as number[], on: [] as number[] };
const added: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? (["off", "on"] as const) : (["on", "off"] as const);
  const us = {} as Record<"off" | "on", number>;
  for (const which of order) cpu[which].push((us[which] = cpuPerCall(CALLS, runs[which])));
  added.push(us.on - us.off);
}
if (kept === 0) throw new Error("the bench kept no bodies");
report({
  bench: "body-capture",
  measure: "CPU keeping a model call's request and answer for the request log adds (REQUEST_LOG_BODIES on)",
  value: Number(median(added).toFixed(3)),
  unit: "µs",
  target: "<= 10",
  note: `rounds ${added.map((a) => a.toFixed(2)).join(", ")} µs; off ${spread(cpu.off)} µs, on ${spread(cpu.on)} µs a call (a ${JSON.stringify(request).length}-byte request, a ${answer.length}-byte answer)`,
});
