// A provider as fast as Node can answer: POST …/chat/completions returns one fixed completion in
// OpenAI's shape (with usage), or with `"stream": true` twenty chunks, a usage chunk and [DONE] at
// once, so what a benchmark measures on top of it is the gateway's own cost.
import http from "node:http";

const base = { id: "chatcmpl-bench", created: 1_760_000_000, model: "grok-4-fast" };
const usage = { prompt_tokens: 12, completion_tokens: 20, total_tokens: 32 };
const whole = JSON.stringify({
  ...base,
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the bench." }, finish_reason: "stop" }],
  usage,
});
const chunk = (delta: object, finish: string | null) =>
  `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const streamed = [
  chunk({ role: "assistant", content: "" }, null),
  ...Array.from({ length: 20 }, (_, i) => chunk({ content: `token${i} ` }, null)),
  chunk({}, "stop"),
  `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`,
  "data: [DONE]\n\n",
];

const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (d: Buffer) => (body += d));
  req.on("end", () => {
    if (!body.includes('"stream":true')) {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(whole) });
      return void res.end(whole);
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const event of streamed) res.write(event);
    res.end();
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
