import type { Readable } from "node:stream";
import type { CallStop } from "../upstream/call-stop.ts";
import type { ProviderEntry } from "../upstream/llm-catalogue.ts";
import { streamCappedText, upstreamMaxBytes } from "../upstream/capped-body.ts";
import type { ChatPart } from "./chat-types.ts";
import { postChat } from "./call/provider-http.ts";
import { chatCompletionsBody, createChunkDecoder, type RelayRequest } from "./wire/openai-chat.ts";

/** Providers whose streams the gateway reads itself: those speaking OpenAI's Chat Completions. */
export function relaysStream(entry: ProviderEntry): boolean {
  return entry.wire === "openai-compatible" || entry.wire === "openai";
}

/** Where a stream's parts go, as they come. */
export type PartListener = {
  /** One part, in order; `finish` is the last. */
  part(part: ChatPart): void;
  /** The provider's stream ended after its `finish`. */
  end(): void;
  /** The provider failed, its stream broke, it passed the byte cap, or the listener threw: nothing more comes. */
  fail(err: Error): void;
};

/** A chat stream's parts, however they are read: `ready` resolves once output has begun, then `attach`. */
export interface PartSource {
  /** Resolves once a part other than `model` has come (or the stream ended); rejects on a failure before it. */
  ready(): Promise<void>;
  /** Hands on the parts kept so far, then each one as it comes, until `end` or `fail`. */
  attach(listener: PartListener): void;
}

/**
 * An OpenAI Chat Completions event stream, read as it arrives: each read of the body is decoded at once
 * and its parts handed to the listener in the same turn — no generator, promise or web stream per
 * event, which were most of a relayed token's cost. Parts decoded before a listener is attached are kept
 * for it. A failure or the byte cap (a 502 naming the service) destroys the body, which aborts the
 * upstream request; so does aborting the request's own signal.
 */
export class PartFeed implements PartSource {
  private readonly kept: ChatPart[] = [];
  private listener: PartListener | undefined;
  private outcome: { err?: Error } | undefined;
  private begun = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly body: Readable,
    service = "upstream",
    maxBytes = upstreamMaxBytes(),
  ) {
    const decoder = createChunkDecoder((part) =>
      part.type === "error" ? this.finish(new Error(part.message)) : this.emit(part),
    );
    streamCappedText(body, service, maxBytes, {
      text: (text) => decoder.feed(text),
      end: () => {
        decoder.end();
        this.finish();
      },
      fail: (err) => this.finish(err),
    });
  }

  ready(): Promise<void> {
    if (this.begun || this.outcome) return this.settled();
    return new Promise<void>((resolve) => (this.wake = resolve)).then(() => this.settled());
  }

  attach(listener: PartListener): void {
    for (const part of this.kept.splice(0)) if (!this.deliver(listener, part)) return;
    if (this.outcome) return this.tell(listener);
    this.listener = listener;
  }

  /** Output has begun (what came before a failure is still handed on), or the failure before it. */
  private settled(): Promise<void> {
    return this.begun || !this.outcome?.err ? Promise.resolve() : Promise.reject(this.outcome.err);
  }

  private emit(part: ChatPart): void {
    if (part.type !== "model" && !this.begun) {
      this.begun = true;
      this.wake?.();
    }
    if (this.listener) this.deliver(this.listener, part);
    else this.kept.push(part);
  }

  /** Hands one part on; a listener that throws ends the stream with its error, as a reader's loop would. */
  private deliver(listener: PartListener, part: ChatPart): boolean {
    try {
      listener.part(part);
      return true;
    } catch (err) {
      // While attaching, the listener is not yet the one `finish` tells.
      const told = this.listener === listener;
      this.finish(err as Error);
      if (!told) this.tell(listener);
      return false;
    }
  }

  private finish(err?: Error): void {
    if (this.outcome) return;
    this.outcome = err ? { err } : {};
    if (err) this.body.destroy();
    this.wake?.();
    if (this.listener) this.tell(this.listener);
  }

  private tell(listener: PartListener): void {
    this.listener = undefined;
    if (this.outcome?.err) listener.fail(this.outcome.err);
    else listener.end();
  }
}

/** The AI SDK's parts (an async generator) as a PartSource: pulled one at a time, as the SDK yields them. */
export class PulledParts implements PartSource {
  private readonly kept: ChatPart[] = [];
  private done = false;

  constructor(private readonly parts: AsyncGenerator<ChatPart>) {}

  async ready(): Promise<void> {
    for (;;) {
      const next = await this.parts.next();
      if (next.done) return void (this.done = true);
      this.kept.push(next.value);
      if (next.value.type !== "model") return;
    }
  }

  attach(listener: PartListener): void {
    void (async () => {
      try {
        for (const part of this.kept.splice(0)) listener.part(part);
        if (!this.done) for await (const part of this.parts) listener.part(part);
      } catch (err) {
        return listener.fail(err as Error);
      }
      listener.end();
    })();
  }
}

/**
 * Starts a streamed chat on a provider speaking OpenAI's Chat Completions and reads its events
 * itself. The AI SDK's pipeline for the same stream (a provider object and its zod schemas per
 * request, every chunk validated, several layers of web streams) was most of the gateway's CPU and
 * memory per stream. A refusal is thrown here as the gateway error it means, before any output.
 */
export async function relayChat(entry: ProviderEntry, r: RelayRequest, stop: CallStop): Promise<PartFeed> {
  return new PartFeed(await postChat(entry, chatCompletionsBody(entry, r), stop), entry.name);
}
