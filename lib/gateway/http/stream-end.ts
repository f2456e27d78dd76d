/**
 * Passes a body through and settles `ended` when it is read to the end, fails, or the client goes
 * away (cancel), so the guard can hold a concurrency slot for exactly as long as the stream lives.
 */
export function untilStreamEnds(source: ReadableStream<Uint8Array>): {
  body: ReadableStream<Uint8Array>;
  ended: Promise<void>;
} {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          end();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        end();
      }
    },
    async cancel(reason) {
      end();
      await reader.cancel(reason).catch(() => {});
    },
  });
  return { body, ended };
}
