// A provider as fast as Node can answer: POST …/chat/completions returns one fixed completion in
// OpenAI's shape (with usage), so what a benchmark measures on top of it is the gateway's own cost.
import http from "node:http";

const body = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1_760_000_000,
  model: "grok-4-fast",
  choices: [{ index: 0, message: { role: "assistant", content: "Hello from the bench." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
});
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}` }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
