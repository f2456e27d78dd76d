// What every wire's streams share: the server-sent event frame the gateway writes, the provider's
// mid-stream failure as an error, and the contract of a reader that turns one provider's events into
// the client's frames (lib/llm/call/relay.ts runs it over the provider's body).
import type { FeatureUse } from "../../usage/meter.ts";
import type { Usage } from "../chat-types.ts";

/** One server-sent event as written to the client. */
export const sseFrame = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** A provider's mid-stream error event (OpenAI's `error` string or object, Anthropic's `{message}`) as the error to throw. */
export function streamFailure(error: unknown): Error {
  const message = typeof error === "string" ? error : (error as { message?: unknown } | undefined)?.message;
  return new Error(String(message ?? "the provider failed mid-stream"));
}

/**
 * Turns a provider's events into the client's: one of these per stream, chosen by the provider's
 * wire and the surface the client called. `event` throws on the provider's own error event.
 */
export interface EventTranslator {
  /**
   * The frames for an event read as its raw data, without parsing it, when the translator can tell
   * that is enough (a pass-through chunk carrying no usage or error); undefined to have it parsed.
   */
  raw?(data: string): string[] | undefined;
  /** Frames to send for one provider event (its data parsed from JSON, with the SSE event name if any). */
  event(data: Record<string, unknown>, name: string | undefined): string[];
  /** Frames closing the stream after the provider finished. */
  end(): string[];
  /** Frames telling the client the stream failed part way. */
  error(message: string): string[];
  usage(): Usage;
  /** The model the provider said it used, once it has. */
  model(): string | undefined;
  /** What the provider reported using beyond tokens so far (server tools, a service tier), for metering. */
  features?(): FeatureUse | undefined;
}
