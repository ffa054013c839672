import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ResponseError, type CancellationToken } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import { createNdjsonConnection, type FrameError } from './index.ts';

/** A serving connection on in-memory pipes, with one slow method and one echo. */
function serve() {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const refused: FrameError[] = [];
  const { connection, dispatcher } = createNdjsonConnection(toServer, fromServer, { answerBadFrames: true, onBadFrame: (e) => refused.push(e) });
  const release: (() => void)[] = [];
  dispatcher!.on('echo', (p: unknown) => p);
  dispatcher!.on('wait', (p: unknown) => new Promise((resolve) => release.push(() => resolve(p))));
  dispatcher!.on('fail', () => new ResponseError(4004, 'no'));
  connection.listen();
  const frames: unknown[] = [];
  let partial = '';
  fromServer.on('data', (c: Buffer) => {
    const lines = (partial + c.toString('utf8')).split('\n');
    partial = lines.pop()!;
    frames.push(...lines.map((l) => JSON.parse(l)));
  });
  return { send: (text: string) => toServer.write(text), frames, release, refused, connection, dispatcher: dispatcher! };
}

const req = (id: unknown, method = 'echo', params: unknown = { v: id }) => `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('RequestGate (the serving end of the wire)', () => {
  it('answers string, number and null ids with the id as sent, and keeps 1 and "1" apart', async () => {
    const s = serve();
    s.send(req(1) + req('1') + req(null) + req(2.5) + req('x'.repeat(30)));
    await vi.waitFor(() => expect(s.frames).toHaveLength(5));
    expect(s.frames).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 1, result: { v: 1 } },
        { jsonrpc: '2.0', id: '1', result: { v: '1' } },
        { jsonrpc: '2.0', id: null, result: { v: null } },
        { jsonrpc: '2.0', id: 2.5, result: { v: 2.5 } },
        { jsonrpc: '2.0', id: 'x'.repeat(30), result: { v: 'x'.repeat(30) } },
      ]),
    );
  });

  it('answers ids of other types with -32600 and id null', async () => {
    const s = serve();
    s.send(req(true) + req({}) + req([]) + req([1]) + req(false) + '{"jsonrpc":"2.0","id":1e400,"method":"echo"}\n' + req(7));
    await vi.waitFor(() => expect(s.frames).toHaveLength(7));
    const errors = s.frames.slice(0, 6) as { id: unknown; error: { code: number; message: string } }[];
    for (const e of errors) {
      expect(e.id).toBeNull();
      expect(e.error.code).toBe(ErrorCode.InvalidRequest);
      expect(e.error.message).toMatch(/"id" must be/);
    }
    expect(s.frames[6]).toEqual({ jsonrpc: '2.0', id: 7, result: { v: 7 } });
  });

  it('refuses a jsonrpc other than "2.0", naming it, with the request id', async () => {
    const s = serve();
    s.send('{"jsonrpc":"1.0","id":3,"method":"echo"}\n{"id":4,"method":"echo"}\n{"jsonrpc":2,"id":5,"method":"echo"}\n');
    await vi.waitFor(() => expect(s.frames).toHaveLength(3));
    expect(s.frames.map((f) => [(f as { id: unknown }).id, (f as { error: { code: number } }).error.code])).toEqual([
      [3, -32600],
      [4, -32600],
      [5, -32600],
    ]);
    expect(JSON.stringify(s.frames[0])).toContain('\\"jsonrpc\\" must be the string \\"2.0\\"');
  });

  it('refuses a second request with an id still in progress and answers the first', async () => {
    const s = serve();
    s.send(req(9, 'wait', { n: 'first' }));
    await vi.waitFor(() => expect(s.release).toHaveLength(1));
    s.send(req(9, 'echo', { n: 'second' }));
    await vi.waitFor(() => expect(s.frames).toHaveLength(1));
    expect(s.frames[0]).toEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/id 9 is already in use/) },
    });
    s.release[0]!();
    await vi.waitFor(() => expect(s.frames).toHaveLength(2));
    expect(s.frames[1]).toEqual({ jsonrpc: '2.0', id: 9, result: { n: 'first' } });
    // Once answered, the id is free again.
    s.send(req(9, 'echo', { n: 'third' }));
    await vi.waitFor(() => expect(s.frames).toHaveLength(3));
    expect(s.frames[2]).toEqual({ jsonrpc: '2.0', id: 9, result: { n: 'third' } });
  });

  it('serves a batch as one array, answers an empty batch with -32600, and keeps invalid members in the array', async () => {
    const s = serve();
    s.send(`[${req(1).trim()},{"jsonrpc":"2.0","method":"note"},7,${req(2, 'fail').trim()}]\n`);
    s.send('[]\n');
    s.send('[{"jsonrpc":"2.0","method":"note"}]\n');
    s.send(req('after'));
    await vi.waitFor(() => expect(s.frames).toHaveLength(3));
    const batch = s.frames.find(Array.isArray) as { id: unknown }[];
    expect(batch).toHaveLength(3);
    expect(batch).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 1, result: { v: 1 } },
        { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: expect.any(String) } },
        { jsonrpc: '2.0', id: 2, error: { code: 4004, message: 'no' } },
      ]),
    );
    expect(s.frames).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: an empty batch' } });
    expect(s.frames).toContainEqual({ jsonrpc: '2.0', id: 'after', result: { v: 'after' } });
  });

  it('ignores $/cancelRequest without params or with a bad id, cancels a running request by its client id, and reads on', async () => {
    const s = serve();
    let cancelled = false;
    s.dispatcher.on('cancellable', (_p: unknown, token: CancellationToken) => {
      return new Promise((resolve) => {
        const done = () => ((cancelled = true), resolve('cancelled'));
        if (token.isCancellationRequested) done();
        else token.onCancellationRequested(done);
      });
    });
    s.send(req('c1', 'cancellable'));
    s.send(
      '{"jsonrpc":"2.0","method":"$/cancelRequest"}\n{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}\n' +
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}\n{"jsonrpc":"2.0","method":"$/cancelRequest","params":[]}\n' +
        req('next') +
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"c1"}}\n',
    );
    await vi.waitFor(() => expect(s.frames).toHaveLength(3));
    expect(cancelled).toBe(true);
    // `params: null` is not a valid frame at all (the spec answers those with id null); the others are
    // well-formed notifications that carry no usable id, so nothing answers them.
    expect(s.frames).toContainEqual({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: expect.stringMatching(/"params" must be/) } });
    expect(s.frames).toContainEqual({ jsonrpc: '2.0', id: 'next', result: { v: 'next' } });
    expect(s.frames).toContainEqual({ jsonrpc: '2.0', id: 'c1', result: 'cancelled' });
    expect(s.refused.filter((e) => e.message.includes('$/cancelRequest'))).toHaveLength(3);
  });

  it('refuses positional params and non-object frames, and answers every later frame of the same chunk', async () => {
    const s = serve();
    s.send(`${req(1, 'echo', [1, 2])}"str"\n{"jsonrpc":"2.0","id":2,"method":5}\n{"jsonrpc":"2.0","id":3}\n{"jsonrpc":"2.0","id":4,"method":"echo","params":3}\n${req(5)}`);
    await vi.waitFor(() => expect(s.frames).toHaveLength(6));
    expect(s.frames.map((f) => [(f as { id: unknown }).id, (f as { error?: { code: number } }).error?.code ?? 'ok'])).toEqual([
      [1, ErrorCode.InvalidParams],
      [null, ErrorCode.InvalidRequest],
      [2, ErrorCode.InvalidRequest],
      [3, ErrorCode.InvalidRequest],
      [4, ErrorCode.InvalidRequest],
      [5, 'ok'],
    ]);
  });
});
