/**
 * The JSON events of a server-sent-events response, read with eventsource-parser, a batch per network
 * read. This is what the OpenAI SDK's `Stream` does for chat completions, at a tenth of its cost: the
 * SDK copies its whole unparsed buffer once per event (quadratic in a read's size) and passes every
 * event through four async generators, so a 60 kB reply in 10,000 events cost ~200 ms of CPU before
 * hermes saw a character (docs/performance.md, "The backend's own stream").
 *
 * The SDK's rules are kept: `data: [DONE]` ends the events (what follows is read and ignored, so the
 * connection ends cleanly); an event whose data is not JSON is an error; an event whose JSON has an
 * `error` field is thrown as `toError(error)` (the SDK's APIError, so it is classified as before); an
 * event with no blank line after it when the body ends is dropped.
 */
import { createParser } from 'eventsource-parser';

export async function* sseJsonBatches<T>(body: ReadableStream<Uint8Array>, toError: (error: unknown) => Error): AsyncGenerator<T[]> {
  let batch: T[] = [];
  let done = false;
  let failure: Error | undefined;
  const parser = createParser({
    onEvent(event) {
      if (done || failure) return;
      if (event.data.startsWith('[DONE]')) {
        done = true;
        return;
      }
      let data: { error?: unknown } | null;
      try {
        data = JSON.parse(event.data) as { error?: unknown } | null;
      } catch (cause) {
        failure = new SyntaxError(`the model's stream sent an event that is not JSON (${(cause as Error).message}): ${event.data.slice(0, 200)}`);
        return;
      }
      if (data && data.error) {
        failure = toError(data.error);
        return;
      }
      batch.push(data as T);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      parser.feed(decoder.decode(read.value, { stream: true }));
      // The events before a failure are given first, as the SDK gives them one by one.
      if (batch.length > 0) {
        const ready = batch;
        batch = [];
        yield ready;
      }
      if (failure) throw failure;
    }
    ended = true;
  } finally {
    // Thrown out of, or left by the caller: the connection is not read to its end, so it is let go.
    if (!ended) void reader.cancel().catch(() => undefined);
  }
  parser.feed(decoder.decode());
  if (batch.length > 0) yield batch;
  if (failure) throw failure;
}
