import { StreamAnswer } from "../../gateway/pipeline/answer.ts";
import type { ChatStream } from "../llm/chat.ts";
import { completionUsage } from "../llm/usage-report.ts";

/** A chat stream as the compatible surfaces answer it: metered (provider, model, tokens, bytes) when it ends. */
export const chatStreamAnswer = (stream: ChatStream): StreamAnswer =>
  new StreamAnswer(
    stream.source,
    stream.finished.then((o) => ({ ...completionUsage(o), bytesOut: o.bytes })),
  );
