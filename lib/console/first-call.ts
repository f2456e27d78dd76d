import { DEFAULT_PROVIDER, isConfigured, PROVIDERS } from "../upstream/llm-catalogue.ts";
import { pythonLiteral, shellQuote } from "./chat-request.ts";

/**
 * A first call in the caller's own tools: one chat completion as curl against the OpenAI-compatible
 * surface, through the OpenAI SDK (Python and TypeScript, `base_url` = this gateway), through the
 * Anthropic SDK (Python and TypeScript), and the gateway as an MCP server in a client's configuration.
 * The key is read from the environment; the one line that sets it shows the key when the caller has it
 * in hand (the one-time key panel), else a placeholder.
 */

export type FirstCallRequest = {
  /** `provider/model`, as every surface names models. */
  model: string;
  messages: { role: "system" | "user" | "assistant"; content: string }[];
  temperature?: number;
};

export type FirstCallId =
  "chat-curl" | "openai-python" | "openai-typescript" | "anthropic-python" | "anthropic-typescript" | "mcp";

export type FirstCallSample = { id: FirstCallId; label: string; code: string };

/** Anthropic's Messages API asks for an answer's length; a first call needs no more than this. */
export const ANTHROPIC_MAX_TOKENS = 1024;

const PLACEHOLDER = "<your key>";

/** The model a first call names: the default provider's own model when it is configured, else the first configured one's. */
export function sampleModel(env: Record<string, string | undefined> = process.env): string {
  const configured = PROVIDERS.filter((p) => isConfigured(p, env));
  const provider =
    configured.find((p) => p.name === DEFAULT_PROVIDER) ??
    configured[0] ??
    PROVIDERS.find((p) => p.name === DEFAULT_PROVIDER)!;
  return `${provider.name}/${provider.defaultModel}`;
}

/** The first call the home page and a new key's panel show: one question, nothing else set. */
export function helloRequest(model: string): FirstCallRequest {
  return { model, messages: [{ role: "user", content: "Say hello in five words." }] };
}

/** A value as a TypeScript literal indented to sit inside a call at `indent` spaces. */
function tsLiteral(value: unknown, indent: number): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${" ".repeat(indent)}`);
}

/** Keyword arguments of a Python call, one a line. */
function pythonArguments(args: Record<string, unknown>): string {
  return Object.entries(args)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `    ${k}=${pythonLiteral(v, 4)},`)
    .join("\n");
}

/** Anthropic's Messages take the system prompt apart from the turns. */
function anthropicParts(request: FirstCallRequest) {
  const system = request.messages
    .filter((m) => m.role === "system")
    .map((m) => m.content)
    .join("\n\n");
  const messages = request.messages.filter((m) => m.role !== "system");
  return { system: system || undefined, messages };
}

export function firstCallSamples(origin: string, request: FirstCallRequest, key?: string): FirstCallSample[] {
  const secret = key ?? PLACEHOLDER;
  const inShell = `export API_KEY=${key ?? PLACEHOLDER}`;
  const openaiArgs = { model: request.model, messages: request.messages, temperature: request.temperature };
  const { system, messages } = anthropicParts(request);
  const anthropicArgs = {
    model: request.model,
    max_tokens: ANTHROPIC_MAX_TOKENS,
    system,
    messages,
    temperature: request.temperature,
  };
  const json = JSON.stringify(
    Object.fromEntries(Object.entries(openaiArgs).filter(([, v]) => v !== undefined)),
    null,
    2,
  );
  return [
    {
      id: "chat-curl",
      label: "curl",
      code: [
        key ? inShell : `# ${inShell}`,
        `curl ${origin}/v1/chat/completions \\`,
        `  -H "Authorization: Bearer $API_KEY" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d ${shellQuote(json)}`,
      ].join("\n"),
    },
    {
      id: "openai-python",
      label: "OpenAI SDK · Python",
      code: [
        `# pip install openai; in your shell: ${inShell}`,
        "import os",
        "from openai import OpenAI",
        "",
        `client = OpenAI(base_url="${origin}/v1", api_key=os.environ["API_KEY"])`,
        "completion = client.chat.completions.create(",
        pythonArguments(openaiArgs),
        ")",
        "print(completion.choices[0].message.content)",
      ].join("\n"),
    },
    {
      id: "openai-typescript",
      label: "OpenAI SDK · TypeScript",
      code: [
        `// npm install openai; in your shell: ${inShell}`,
        'import OpenAI from "openai";',
        "",
        `const client = new OpenAI({ baseURL: "${origin}/v1", apiKey: process.env.API_KEY });`,
        `const completion = await client.chat.completions.create(${tsLiteral(JSON.parse(json), 0)});`,
        "console.log(completion.choices[0].message.content);",
      ].join("\n"),
    },
    {
      id: "anthropic-python",
      label: "Anthropic SDK · Python",
      code: [
        `# pip install anthropic; in your shell: ${inShell}`,
        "import os",
        "import anthropic",
        "",
        `client = anthropic.Anthropic(base_url="${origin}", api_key=os.environ["API_KEY"])`,
        "message = client.messages.create(",
        pythonArguments(anthropicArgs),
        ")",
        "print(message.content[0].text)",
      ].join("\n"),
    },
    {
      id: "anthropic-typescript",
      label: "Anthropic SDK · TypeScript",
      code: [
        `// npm install @anthropic-ai/sdk; in your shell: ${inShell}`,
        'import Anthropic from "@anthropic-ai/sdk";',
        "",
        `const client = new Anthropic({ baseURL: "${origin}", apiKey: process.env.API_KEY });`,
        `const message = await client.messages.create(${tsLiteral(
          Object.fromEntries(Object.entries(anthropicArgs).filter(([, v]) => v !== undefined)),
          0,
        )});`,
        'for (const block of message.content) if (block.type === "text") console.log(block.text);',
      ].join("\n"),
    },
    {
      id: "mcp",
      label: "MCP client",
      code: [
        "# Claude Code:",
        `claude mcp add --transport http gateway ${origin}/v1/mcp --header "Authorization: Bearer ${secret}"`,
        "",
        "# Or in a client's JSON configuration (Claude Desktop, Cursor, VS Code…):",
        JSON.stringify(
          {
            mcpServers: {
              gateway: { type: "http", url: `${origin}/v1/mcp`, headers: { Authorization: `Bearer ${secret}` } },
            },
          },
          null,
          2,
        ),
      ].join("\n"),
    },
  ];
}

/** Every form but the MCP client's: the chat console's "View code" shows its conversation, not a tool server. */
export function completionSamples(origin: string, request: FirstCallRequest): FirstCallSample[] {
  return firstCallSamples(origin, request).filter((s) => s.id !== "mcp");
}
