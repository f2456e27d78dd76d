import { z } from "zod";

/**
 * The chat console's request to POST /v1/llm/chat, and the same request as code a developer can run
 * ("View code"): curl, JavaScript (fetch) and Python (requests), calling the page's own origin with the
 * key left as a placeholder read from the environment.
 */

export type ChatTurn = { role: "user" | "assistant"; content: string };

/** What the console's settings panel holds; checked before a request is built. */
export const ChatSettings = z.object({
  provider: z.string().min(1).max(100),
  model: z.string().min(1).max(200),
  system: z.string().trim().max(20_000, "The system prompt is at most 20,000 characters"),
  /** Empty: the model's own default. */
  temperature: z
    .union([z.literal(""), z.coerce.number().min(0, "Temperature is 0 to 2").max(2, "Temperature is 0 to 2")])
    .transform((t) => (t === "" ? undefined : t)),
});
export type ChatSettings = z.input<typeof ChatSettings>;

export type ChatBody = {
  provider: string;
  model: string;
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  temperature?: number;
  stream?: boolean;
};

/** The body for a conversation: the system prompt (when set) first, then the turns, in order. */
export function chatBody(settings: z.output<typeof ChatSettings>, turns: ChatTurn[]): ChatBody {
  return {
    provider: settings.provider,
    model: settings.model,
    messages: [...(settings.system ? [{ role: "system" as const, content: settings.system }] : []), ...turns],
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
  };
}

/** A JSON value as a Python literal: JSON's strings and numbers are Python's, its constants are not. */
export function pythonLiteral(value: unknown, indent = 0): string {
  const pad = " ".repeat(indent + 4);
  const end = " ".repeat(indent);
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${pad}${pythonLiteral(v, indent + 4)},`).join("\n")}\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, v]) => `${pad}${JSON.stringify(k)}: ${pythonLiteral(v, indent + 4)},`).join("\n")}\n${end}}`;
}

/** A string as one single-quoted shell word: every ' becomes '\'' so the JSON reaches curl unchanged. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export type CodeSample = { id: "curl" | "javascript" | "python"; label: string; code: string };

/**
 * The request as code. The console streams; the samples ask for the whole reply at once (one JSON
 * answer is what a first call wants to print), and say how to stream.
 */
export function codeSamples(origin: string, body: ChatBody): CodeSample[] {
  const url = `${origin}/v1/llm/chat`;
  const { stream: _stream, ...plain } = body;
  const json = JSON.stringify(plain, null, 2);
  return [
    {
      id: "curl",
      label: "curl",
      code: [
        '# export API_KEY=<your key>; add "stream": true for server-sent events',
        `curl ${url} \\`,
        `  -H "X-API-Key: $API_KEY" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d ${shellQuote(json)}`,
      ].join("\n"),
    },
    {
      id: "javascript",
      label: "JavaScript",
      code: [
        "// export API_KEY=<your key> (Node 18+ or Deno)",
        `const res = await fetch("${url}", {`,
        `  method: "POST",`,
        `  headers: { "X-API-Key": process.env.API_KEY, "Content-Type": "application/json" },`,
        `  body: JSON.stringify(${json.replace(/\n/g, "\n  ")}),`,
        "});",
        "const reply = await res.json();",
        "console.log(reply.content);",
      ].join("\n"),
    },
    {
      id: "python",
      label: "Python",
      code: [
        "# export API_KEY=<your key>; pip install requests",
        "import os",
        "import requests",
        "",
        `payload = ${pythonLiteral(plain)}`,
        `res = requests.post("${url}", headers={"X-API-Key": os.environ["API_KEY"]}, json=payload)`,
        "res.raise_for_status()",
        'print(res.json()["content"])',
      ].join("\n"),
    },
  ];
}
