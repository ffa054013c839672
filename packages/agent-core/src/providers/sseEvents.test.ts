import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../scripts/testing/seededRandom.ts';
import { openAiChunks, sseBatches } from './sseEvents.ts';

/** A body that delivers `bytes` in the given pieces, one read each; `cancelled` says whether it was let go. */
function body(bytes: Uint8Array, cuts: number[] = []): { stream: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    pieces.push(bytes.slice(from, cut));
    from = cut;
  }
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

class StreamedError extends Error {
  constructor(readonly error: unknown) {
    super('streamed error');
  }
}
const toError = (error: unknown) => new StreamedError(error);

async function read(text: string, cuts?: number[]): Promise<{ batches: unknown[][]; events: unknown[] }> {
  const batches: unknown[][] = [];
  for await (const batch of sseBatches(body(new TextEncoder().encode(text), cuts).stream, openAiChunks(toError))) batches.push(batch);
  return { batches, events: batches.flat() };
}

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;

describe('sseBatches, with the OpenAI rules (openAiChunks)', () => {
  it('gives the same events however the body is cut, multi-byte characters split included', async () => {
    const sent = Array.from({ length: 60 }, (_, n) => ({ n, text: ['数据库', 'é', '🙂 emoji', 'plain'][n % 4]!.repeat(1 + (n % 3)) }));
    const text = sent.map(event).join('') + 'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text).length;
    const random = seededRandom(7);
    for (let round = 0; round < 40; round += 1) {
      const cuts = [...new Set(Array.from({ length: 1 + Math.floor(random() * 30) }, () => 1 + Math.floor(random() * (bytes - 1))))].sort((a, b) => a - b);
      expect((await read(text, cuts)).events).toEqual(sent);
    }
  });

  it('gives the events of one read as one batch', async () => {
    const text = [1, 2, 3].map((n) => event({ n })).join('') + event({ n: 4 });
    const at = text.indexOf('data: {"n":4}');
    expect((await read(text, [at])).batches).toEqual([[{ n: 1 }, { n: 2 }, { n: 3 }], [{ n: 4 }]]);
  });

  it('reads CRLF lines, comments, named events and data over several lines as the SSE format defines them', async () => {
    const text = ': keep-alive\r\n\r\nevent: message\r\ndata: {"a":\r\ndata: 1}\r\n\r\nid: 3\ndata: {"b":2}\n\n';
    expect((await read(text)).events).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('ends the events at [DONE] and reads the rest of the body without giving it', async () => {
    const source = body(new TextEncoder().encode(event({ n: 1 }) + 'data: [DONE]\n\n' + event({ n: 2 })), [5]);
    const events: unknown[] = [];
    for await (const batch of sseBatches(source.stream, openAiChunks(toError))) events.push(...batch);
    expect(events).toEqual([{ n: 1 }]);
    expect(source.cancelled()).toBe(false);
  });

  it('throws an event that carries an error, with what it carried, after the events before it in the same read', async () => {
    const events: unknown[] = [];
    const failure = await (async () => {
      const text = event({ n: 1 }) + event({ n: 2 }) + event({ error: { message: 'overloaded', code: 529 } }) + event({ n: 3 });
      for await (const batch of sseBatches(body(new TextEncoder().encode(text), [5]).stream, openAiChunks(toError))) events.push(...batch);
    })().catch((error: unknown) => error);
    expect(events).toEqual([{ n: 1 }, { n: 2 }]);
    expect(failure).toBeInstanceOf(StreamedError);
    expect((failure as StreamedError).error).toEqual({ message: 'overloaded', code: 529 });
  });

  it('says which event was not JSON', async () => {
    await expect(read(event({ n: 1 }) + 'data: {"n": 2\n\n')).rejects.toThrow(/not JSON .*: \{"n": 2/);
  });

  it('drops an event the body ends in the middle of, as the SDK does', async () => {
    expect((await read(event({ n: 1 }) + 'data: {"n":2}\n')).events).toEqual([{ n: 1 }]);
  });

  it('lets the connection go when the caller stops reading', async () => {
    const source = body(new TextEncoder().encode(event({ n: 1 }) + event({ n: 2 })), [event({ n: 1 }).length]);
    for await (const batch of sseBatches(source.stream, openAiChunks(toError))) {
      expect(batch).toEqual([{ n: 1 }]);
      break;
    }
    expect(source.cancelled()).toBe(true);
  });
});

describe('sseBatches, with rules of its caller', () => {
  it('gives each event to `take` with its name, and skips what it returns undefined for', async () => {
    const text = 'event: ping\ndata: {}\n\nevent: delta\ndata: x\n\ndata: unnamed\n\n';
    const seen: unknown[] = [];
    for await (const batch of sseBatches(body(new TextEncoder().encode(text)).stream, (event) => (event.event === 'ping' ? undefined : `${event.event ?? '-'}:${event.data}`))) seen.push(...batch);
    expect(seen).toEqual(['delta:x', '-:unnamed']);
  });
});

describe('sseBatches: signs of life', () => {
  it('tells onRead of every read of bytes, comments and half events included, before the events are parsed', async () => {
    const comment = ': keep-alive\n\n';
    const whole = event({ choices: [{ delta: { content: 'a' } }] });
    const text = `${comment}${whole}data: {"choices": [{"delta"`;
    const reads: number[] = [];
    const seen: unknown[] = [];
    // Reads: half the comment, its rest, most of the event, its end with half the next.
    const source = body(new TextEncoder().encode(text), [5, comment.length, comment.length + whole.length - 3]);
    for await (const batch of sseBatches(source.stream, openAiChunks(toError), () => reads.push(seen.length))) seen.push(...batch);
    // Every read counted, the comment's too, each before the events it completed were given.
    expect(reads).toEqual([0, 0, 0, 0]);
    expect(seen).toHaveLength(1);
  });
});
