import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { Message } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import { FrameError, LineSplitter, NdjsonMessageReader, NdjsonMessageWriter, createNdjsonConnection } from './index.ts';

function texts(results: ReturnType<LineSplitter['push']>): string[] {
  return results.map((r) => (r.kind === 'line' ? r.text : `<overflow ${r.bytes}>`));
}

/** Reads every message and error a reader produces from the given chunks. */
async function readAll(chunks: (Buffer | string)[], maxLineBytes?: number) {
  const input = new PassThrough();
  const reader = new NdjsonMessageReader(input, { maxLineBytes });
  const messages: Message[] = [];
  const errors: Error[] = [];
  reader.onError((e) => errors.push(e));
  const closed = new Promise<void>((resolve) => reader.onClose(() => resolve()));
  reader.listen((m) => messages.push(m));
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await closed;
  return { messages, errors };
}

describe('LineSplitter', () => {
  const frames = ['{"jsonrpc":"2.0","method":"a","params":{"t":"héllo 世界 🎉"}}', '{"jsonrpc":"2.0","id":7,"result":null}'];
  const bytes = Buffer.from(frames.map((f) => `${f}\n`).join(''), 'utf8');

  it('yields the same lines wherever the stream is split', () => {
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const s = new LineSplitter(1024);
      const out = [...texts(s.push(bytes.subarray(0, cut))), ...texts(s.push(bytes.subarray(cut))), ...texts(s.end())];
      expect(out, `split at byte ${cut}`).toEqual(frames);
    }
  });

  it('keeps a multi-byte character that straddles two chunks', () => {
    const line = Buffer.from('{"x":"🎉"}\n', 'utf8');
    const emoji = line.indexOf(0xf0);
    for (const cut of [emoji + 1, emoji + 2, emoji + 3]) {
      const s = new LineSplitter(1024);
      expect([...texts(s.push(line.subarray(0, cut))), ...texts(s.push(line.subarray(cut)))]).toEqual(['{"x":"🎉"}']);
    }
  });

  it('delivers lines fed one byte at a time', () => {
    const s = new LineSplitter(1024);
    const out: string[] = [];
    for (const byte of bytes) out.push(...texts(s.push(Buffer.from([byte]))));
    expect(out).toEqual(frames);
  });

  it('ignores blank lines and strips a carriage return before the newline', () => {
    const s = new LineSplitter(1024);
    expect(texts(s.push(Buffer.from('\n\r\n  \n{"a":1}\r\n\n')))).toEqual(['{"a":1}']);
  });

  it('drops an over-long line, reports its size, and goes on with the next', () => {
    const s = new LineSplitter(10);
    const out = [...texts(s.push(Buffer.from('0123456789ABCDEF'))), ...texts(s.push(Buffer.from('XYZ\n{"ok":1}\n')))];
    expect(out).toEqual(['<overflow 19>', '{"ok":1}']);
  });

  it('decodes a line whole in its chunk as one gathered from several: byte-order mark dropped, bad bytes as U+FFFD', () => {
    const line = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"t":"'), Buffer.from([0xc3, 0x28, 0xff, 0xe2, 0x82]), Buffer.from('"}\n')]);
    const expected = new TextDecoder('utf-8').decode(line.subarray(0, -1));
    expect(expected.startsWith('{"t":"\ufffd(')).toBe(true);
    expect(texts(new LineSplitter(1024).push(line))).toEqual([expected]);
    for (let cut = 1; cut < line.length - 1; cut += 1) {
      const s = new LineSplitter(1024);
      expect([...texts(s.push(line.subarray(0, cut))), ...texts(s.push(line.subarray(cut)))], `split at byte ${cut}`).toEqual([expected]);
    }
  });

  it('takes a line of exactly the limit in one chunk and drops one a byte longer', () => {
    const s = new LineSplitter(10);
    expect(texts(s.push(Buffer.from('"12345678"\n"123456789"\n{"ok":1}\n')))).toEqual(['"12345678"', '<overflow 11>', '{"ok":1}']);
  });

  it('flushes a final line that has no newline', () => {
    const s = new LineSplitter(100);
    expect(texts(s.push(Buffer.from('{"a":1}')))).toEqual([]);
    expect(texts(s.end())).toEqual(['{"a":1}']);
  });
});

describe('NdjsonMessageReader', () => {
  it('reads a 1 MiB message arriving in 7-byte chunks', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const frame = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'big', params: { big } })}\n`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < frame.length; i += 7) chunks.push(frame.subarray(i, i + 7));
    const { messages, errors } = await readAll(chunks);
    expect(errors).toEqual([]);
    expect(messages).toHaveLength(1);
    expect((messages[0] as unknown as { params: { big: string } }).params.big).toHaveLength(1024 * 1024);
  });

  it('reports a malformed line as a parse error and still reads the next line', async () => {
    const { messages, errors } = await readAll(['this is not json\n{"jsonrpc":"2.0","method":"ok"}\n']);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'ok' }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(FrameError);
    expect((errors[0] as FrameError).code).toBe(ErrorCode.ParseError);
    expect(errors[0]!.message).toContain('this is not json');
  });

  it('reports JSON that is not a JSON-RPC message as an invalid request, keeping its id', async () => {
    const { messages, errors } = await readAll(['[1,2]\n{"id":4}\n']);
    expect(messages).toEqual([]);
    expect(errors.map((e) => [(e as FrameError).code, (e as FrameError).id])).toEqual([
      [ErrorCode.InvalidRequest, null],
      [ErrorCode.InvalidRequest, 4],
    ]);
  });

  it('drops an over-cap line with a parse error and reads on', async () => {
    const { messages, errors } = await readAll([`{"pad":"${'y'.repeat(200)}"}\n`, '{"jsonrpc":"2.0","method":"after"}\n'], 64);
    expect(messages).toEqual([{ jsonrpc: '2.0', method: 'after' }]);
    expect((errors[0] as FrameError).code).toBe(ErrorCode.ParseError);
    expect(errors[0]!.message).toMatch(/exceeds the 64-byte limit/);
  });

  it('reads many lines in one chunk and a line split across the next chunks', async () => {
    const lines = Array.from({ length: 1000 }, (_, seq) => `${JSON.stringify({ jsonrpc: '2.0', method: 'event', params: { seq, text: 'héllo 世界' } })}\n`);
    const tail = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', method: 'last', params: { text: '🎉 end' } })}\n`);
    // The chunk ends inside the emoji of the last line.
    const cut = tail.indexOf(0xf0) + 2;
    const { messages, errors } = await readAll([Buffer.concat([Buffer.from(lines.join('')), tail.subarray(0, cut)]), tail.subarray(cut)]);
    expect(errors).toEqual([]);
    expect(messages).toEqual([...lines.map((l) => JSON.parse(l)), { jsonrpc: '2.0', method: 'last', params: { text: '🎉 end' } }]);
  });

  it('loses nothing written before listen() is called', async () => {
    const input = new PassThrough();
    input.write('{"jsonrpc":"2.0","method":"early"}\n');
    const reader = new NdjsonMessageReader(input);
    const got: Message[] = [];
    reader.listen((m) => got.push(m));
    input.end();
    await new Promise<void>((resolve) => reader.onClose(() => resolve()));
    expect(got).toEqual([{ jsonrpc: '2.0', method: 'early' }]);
  });
});

describe('NdjsonMessageWriter', () => {
  /** A slow sink with a tiny buffer, so writes must wait for 'drain'. */
  function slowSink() {
    const writes: string[] = [];
    const sink = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _enc, cb) {
        writes.push(chunk.toString('utf8'));
        setTimeout(cb, 1);
      },
    });
    return { sink, writes };
  }

  /** A sink that takes every write at once. */
  function quickSink() {
    const writes: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        writes.push(chunk.toString('utf8'));
        cb();
      },
    });
    return { sink, writes };
  }

  /** The frames in what a sink was given: every write holds whole frames only. */
  function framesOf(writes: string[]): unknown[] {
    for (const w of writes) expect(w.endsWith('\n'), `a write ends inside a frame: ${w.slice(-40)}`).toBe(true);
    return writes.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }

  it('writes whole frames in call order under back-pressure', async () => {
    const { sink, writes } = slowSink();
    const writer = new NdjsonMessageWriter(sink);
    const sent = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: '2.0', method: 'm', params: { i, pad: 'z'.repeat(i * 10) } }));
    const done: Promise<void>[] = [];
    for (const m of sent) {
      done.push(writer.write(m as Message));
      // Some frames in their own tick, some together.
      if (m.params.i % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(done);
    expect(framesOf(writes)).toEqual(sent);
    expect(writer.backlogBytes).toBe(0);
  });

  it('gathers the frames sent in one tick into one write', async () => {
    const { sink, writes } = quickSink();
    const writer = new NdjsonMessageWriter(sink);
    const sent = Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', method: 'event', params: { seq: i } }));
    await Promise.all(sent.map((m) => writer.write(m as Message)));
    expect(writes).toHaveLength(1);
    expect(framesOf(writes)).toEqual(sent);
  });

  it('between hold and release gathers frames and writes them at the release, before any tick', () => {
    const { sink, writes } = quickSink();
    const writer = new NdjsonMessageWriter(sink);
    writer.hold();
    writer.post({ jsonrpc: '2.0', id: 1, result: 'a' } as Message);
    writer.hold();
    void writer.write({ jsonrpc: '2.0', method: 'event', params: {} } as Message);
    writer.release();
    expect(writes).toEqual([]);
    writer.post({ jsonrpc: '2.0', id: 2, result: 'b' } as Message);
    writer.release();
    expect(framesOf(writes)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'a' },
      { jsonrpc: '2.0', method: 'event', params: {} },
      { jsonrpc: '2.0', id: 2, result: 'b' },
    ]);
    expect(writes).toHaveLength(1);
  });

  it('reports a frame posted after the stream closed through onError, with no promise to reject', async () => {
    const sink = new PassThrough();
    const writer = new NdjsonMessageWriter(sink);
    const errors: string[] = [];
    writer.onError(([error]) => errors.push(error.message));
    sink.destroy();
    writer.post({ jsonrpc: '2.0', id: 1, result: null } as Message);
    expect(errors).toEqual(['write after the output stream closed']);
  });

  it('hands a reader that does not read nothing more until it drains: the frames wait, counted as backlog', async () => {
    const writes: string[] = [];
    const held: (() => void)[] = [];
    const sink = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        writes.push(chunk.toString('utf8'));
        held.push(cb);
      },
    });
    const writer = new NdjsonMessageWriter(sink);
    const frame = (seq: number) => ({ jsonrpc: '2.0', method: 'event', params: { seq, text: 'y'.repeat(100) } });
    const bytesOf = (seq: number) => Buffer.byteLength(`${JSON.stringify(frame(seq))}\n`);
    const done: Promise<void>[] = [];
    let total = 0;
    for (let seq = 0; seq < 300; seq += 1) {
      done.push(writer.write(frame(seq) as Message));
      total += bytesOf(seq);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The stream was given frames until it was full (one frame past its 1 KiB mark), then nothing
    // more: the rest of the 300 waits in the writer, and all of it is counted as backlog.
    const given = writes.length;
    expect(given).toBeLessThan(10);
    expect(sink.writableLength).toBeGreaterThanOrEqual(1024);
    expect(sink.writableLength).toBeLessThan(1024 + bytesOf(0));
    expect(writer.backlogBytes).toBe(total);
    // It reads: everything follows, whole and in order, in few writes.
    while (held.length > 0) {
      held.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(done);
    expect(framesOf(writes)).toEqual(Array.from({ length: 300 }, (_, seq) => frame(seq)));
    expect(writes.length).toBeLessThan(10);
    expect(writer.backlogBytes).toBe(0);
  });

  it('rejects the frames still waiting for a drain when the stream closes instead of hanging', async () => {
    const sink = new Writable({ highWaterMark: 1, write: () => undefined });
    const writer = new NdjsonMessageWriter(sink);
    const errors: Error[] = [];
    writer.onError(([error]) => errors.push(error));
    const first = writer.write({ jsonrpc: '2.0', method: 'a' } as Message);
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = writer.write({ jsonrpc: '2.0', method: 'b' } as Message);
    await new Promise((resolve) => setImmediate(resolve));
    sink.destroy();
    await expect(waiting).rejects.toThrow(/closed/);
    expect(errors.map((e) => e.message)).toContain('write after the output stream closed');
    // The frame the sink took and never finished is the sink's to settle.
    void first.catch(() => undefined);
  });

  it('rejects a write after the stream closed instead of hanging', async () => {
    const sink = new PassThrough();
    const writer = new NdjsonMessageWriter(sink);
    sink.destroy();
    await expect(writer.write({ jsonrpc: '2.0' } as Message)).rejects.toThrow(/closed/);
  });
});

describe('createNdjsonConnection', () => {
  it('answers an unreadable frame with a -32700 error response and keeps serving', async () => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const { connection, dispatcher } = createNdjsonConnection(toServer, fromServer, { answerBadFrames: true });
    dispatcher!.on('echo', (p: unknown) => p);
    connection.listen();
    const lines: string[] = [];
    fromServer.on('data', (c: Buffer) => lines.push(...c.toString('utf8').split('\n').filter(Boolean)));
    toServer.write('{oops\n{"jsonrpc":"2.0","id":1,"method":"echo","params":{"v":1}}\n');
    await vi.waitFor(() => expect(lines).toHaveLength(2));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } },
      { jsonrpc: '2.0', id: 1, result: { v: 1 } },
    ]);
    connection.dispose();
  });

  it('keeps notifications and answers in the order they were sent, several to a write', async () => {
    const toServer = new PassThrough();
    const writes: string[] = [];
    const fromServer = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString('utf8'));
        callback();
      },
    });
    const { connection, dispatcher } = createNdjsonConnection(toServer, fromServer, { answerBadFrames: true });
    dispatcher!.on('work', (params) => {
      const p = params as { n: number };
      void connection.sendNotification('event', { started: p.n });
      return { done: p.n };
    });
    connection.listen();
    toServer.write([1, 2, 3].map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'work', params: { n: id } })}\n`).join(''));
    const frames = () => writes.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    await vi.waitFor(() => expect(frames()).toHaveLength(6));
    expect(frames()).toEqual(
      [1, 2, 3].flatMap((n) => [
        { jsonrpc: '2.0', method: 'event', params: { started: n } },
        { jsonrpc: '2.0', id: n, result: { done: n } },
      ]),
    );
    // The three requests came in one chunk and were answered in the same tick: one write for all six frames.
    expect(writes).toHaveLength(1);
    connection.dispose();
  });

  it('stops reading requests while its answers wait for a client that does not read, and serves them all once it does', async () => {
    const toServer = new PassThrough();
    // A client that reads nothing until told to: every write waits for `release`.
    const held: (() => void)[] = [];
    let reading = false;
    const lines: string[] = [];
    const fromServer = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        if (reading) callback();
        else held.push(callback);
      },
    });
    const { connection, dispatcher } = createNdjsonConnection(toServer, fromServer, { answerBadFrames: true, maxOutputBacklogBytes: 4096 });
    dispatcher!.on('echo', (p: unknown) => p);
    connection.listen();
    const padding = 'x'.repeat(200);
    const total = 200;
    for (let id = 1; id <= total; id += 1) {
      toServer.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'echo', params: { padding } })}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The answers piled up past the limit: the input was paused with requests still unread in it.
    expect(toServer.isPaused()).toBe(true);
    expect(toServer.readableLength).toBeGreaterThan(0);
    reading = true;
    for (const release of held.splice(0)) release();
    await vi.waitFor(() => expect(lines).toHaveLength(total));
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(toServer.isPaused()).toBe(false);
    connection.dispose();
  });
});
