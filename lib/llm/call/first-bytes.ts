import type { Readable } from "node:stream";
import { GatewayError } from "../../errors.ts";
import type { CallStop } from "../../upstream/call-stop.ts";
import { providerError } from "../errors.ts";

/**
 * Waits for a streamed answer's first bytes and leaves them to be read. A provider that answers 200
 * and then closes, fails or stalls past the attempt's time before sending anything has still sent the
 * client nothing: thrown here, that is a failed attempt the model router may retry or send elsewhere,
 * where once the stream is handed on it could only be the client's error event. A connection that
 * closed or broken is a 502; a stop (the attempt's time, the client leaving) is the provider error it means.
 * On failure the body is destroyed.
 */
export function firstBytes<B extends Readable>(provider: string, body: B, stop: CallStop): Promise<B> {
  if (body.readableLength > 0) return Promise.resolve(body);
  return new Promise((resolve, reject) => {
    const settle = (failed?: unknown) => {
      body.off("readable", onReadable);
      body.off("error", settle);
      body.off("close", onClose);
      if (failed === undefined) return resolve(body);
      body.destroy();
      reject(providerError(provider, stop.aborted ? stop.reason : failed));
    };
    const closed = () => new GatewayError(502, `${provider} closed its stream before the first event`);
    // Also emitted at the end of a body that had nothing in it.
    const onReadable = () => settle(body.readableLength > 0 ? undefined : closed());
    const onClose = () => settle(closed());
    body.on("readable", onReadable);
    body.once("error", settle);
    body.once("close", onClose);
  });
}
