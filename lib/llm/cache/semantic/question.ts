// What the semantic cache compares of a chat request: its prompt as one normalised text (what is
// embedded), and a partition of everything else that decides the answer, so a neighbour found by its
// prompt alone never answers a request that differs in model, sampling, format or embedding model.
import { createHash } from "node:crypto";
import { canonicalChat } from "../canonical.ts";

/** Which requests an alias's semantic cache matches, with the embedding model its prompts are embedded by. */
export type SemanticRules = { embeddingModel: string; tools: boolean; anyTemperature: boolean };

export type SemanticQuestion = {
  /** The conversation's text, role by role, whitespace collapsed: what is embedded. */
  prompt: string;
  /** A hash of the request less its messages, and of the embedding model. */
  partition: string;
};

/** A prompt longer than this is not embedded: past any embedding model's input limit, and a rare repeat. */
export const MAX_PROMPT_CHARS = 24_000;

const TEXT_ROLES = new Set(["system", "developer", "user", "assistant"]);

/**
 * The question as the semantic cache sees it; undefined when the request is not one it matches: tools
 * (unless the rules allow them), a temperature other than 0 (unless they allow any; absent is
 * OpenAI's default of 1), several choices, or a message that is not plain text (images, audio, tool
 * calls and their results: a near neighbour in words says nothing of those).
 */
export function semanticQuestion(model: string, body: object, rules: SemanticRules): SemanticQuestion | undefined {
  const src = body as Record<string, unknown>;
  if (!rules.tools && (nonEmpty(src.tools) || nonEmpty(src.functions))) return undefined;
  if (!rules.anyTemperature && src.temperature !== 0) return undefined;
  if (src.n !== undefined && src.n !== 1) return undefined;
  if (!Array.isArray(src.messages) || src.messages.length === 0) return undefined;
  const lines: string[] = [];
  let chars = 0;
  for (const m of src.messages as unknown[]) {
    const line = messageLine(m);
    if (line === undefined) return undefined;
    chars += line.length + 1;
    if (chars > MAX_PROMPT_CHARS) return undefined;
    lines.push(line);
  }
  const rest = canonicalChat(model, { ...src, messages: undefined });
  const partition = createHash("sha256")
    .update(JSON.stringify([rules.embeddingModel, rest]))
    .digest("base64url");
  return { prompt: lines.join("\n"), partition };
}

function messageLine(m: unknown): string | undefined {
  if (typeof m !== "object" || m === null) return undefined;
  const { role, content, tool_calls, function_call, audio } = m as Record<string, unknown>;
  if (typeof role !== "string" || !TEXT_ROLES.has(role)) return undefined;
  if (nonEmpty(tool_calls) || function_call != null || audio != null) return undefined;
  const text = contentText(content);
  return text === undefined ? undefined : `${role}: ${text.replace(/\s+/g, " ").trim()}`;
}

function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (content == null) return "";
  if (!Array.isArray(content)) return undefined;
  let text = "";
  for (const part of content) {
    if (typeof part !== "object" || part === null) return undefined;
    const { type, text: partText } = part as Record<string, unknown>;
    if (type !== "text" || typeof partText !== "string") return undefined;
    text += (text ? " " : "") + partText;
  }
  return text;
}

const nonEmpty = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
