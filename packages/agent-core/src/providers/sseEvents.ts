/**
 * A model's server-sent-events stream, read with eventsource-parser, a batch of values per network
 * read. The SDKs' own readers (OpenAI's and Anthropic's `Stream`) copy their unparsed buffer once per
 * event (quadratic in a read's size) and pass every event through four async generators: a 60 kB
 * reply in 10,000 events cost ~200 ms of CPU before hermes saw a character (docs/performance.md,
 * "The backend's own stream"). Each provider keeps its SDK's rules for which event means what
 * (`openAiChunks`, and the Anthropic one in anthropicProvider.ts); an HTTP error status is still
 * the SDK's to report, before the body is read.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * The values `take` makes of the events of `body`, a batch per network read. `take` skips an event by
 * returning undefined and ends the stream by throwing: the values before it in the same read are given
 * first, as the SDKs give them one by one. An event the body ends in the middle of (no blank line
 * after it) is dropped, as the SDKs drop it. A caller that stops reading lets the connection go.
 * `onRead` hears of every read of bytes, before they are parsed (the stall guard's sign of life).
 */
export async function* sseBatches<T>(body: ReadableStream<Uint8Array>, take: (event: EventSourceMessage) => T | undefined, onRead: () => void = () => {}): AsyncGenerator<T[]> {
  let batch: T[] = [];
  let failure: { error: unknown } | undefined;
  const parser = createParser({
    onEvent(event) {
      if (failure) return;
      try {
        const value = take(event);
        if (value !== undefined) batch.push(value);
      } catch (error) {
        failure = { error };
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let ended = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      onRead();
      parser.feed(decoder.decode(read.value, { stream: true }));
      if (batch.length > 0) {
        const ready = batch;
        batch = [];
        yield ready;
      }
      if (failure) throw failure.error;
    }
    ended = true;
  } finally {
    // Thrown out of, or left by the caller: the rest of the body is not wanted.
    if (!ended) void reader.cancel().catch(() => undefined);
  }
  parser.feed(decoder.decode());
  if (batch.length > 0) yield batch;
  if (failure) throw failure.error;
}

/** The event's data as JSON, or an error that shows it. */
export function eventJson(event: EventSourceMessage): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch (cause) {
    throw new SyntaxError(`the model's stream sent an event that is not JSON (${(cause as Error).message}): ${event.data.slice(0, 200)}`);
  }
}

/**
 * OpenAI's chat-completions events, by the SDK's rules: `data: [DONE]` ends them (what follows is read
 * and ignored, so the connection ends cleanly); an event whose JSON has an `error` field is thrown as
 * `toError(error)` (the SDK's APIError, so it is classified as before).
 */
export function openAiChunks<T>(toError: (error: unknown) => Error): (event: EventSourceMessage) => T | undefined {
  let done = false;
  return (event) => {
    if (done) return undefined;
    if (event.data.startsWith('[DONE]')) {
      done = true;
      return undefined;
    }
    const data = eventJson(event) as (T & { error?: unknown }) | null;
    if (data && data.error) throw toError(data.error);
    return data ?? undefined;
  };
}
