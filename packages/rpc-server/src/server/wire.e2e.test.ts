/** The wire's rules against the real backend over real pipes: ids, version, duplicates, early refusals. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, ParamLimit } from '../protocol/index.ts';
import { BackendProcess } from '../testing/backendProcess.ts';
import { rawAnswers, rawAnswer } from '../testing/wireFrames.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function start() {
  const backend = new BackendProcess();
  cleanups.push(() => backend.stop());
  await backend.waitForEvent((e) => e.type === 'gateway.ready');
  return backend;
}

const frame = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('the wire is JSON-RPC 2.0 as specified', () => {
  it('answers requests with string, number and null ids under that id, and other ids with -32600 and id null', async () => {
    const backend = await start();
    const ids = ['s-1', 7, 2.5, null, -3];
    for (const id of ids) backend.writeRaw(frame({ jsonrpc: '2.0', id, method: 'session.list', params: {} }));
    const bad = [true, false, {}, [], [1], { a: 1 }];
    // Each bad id between two good frames, all in one chunk.
    backend.writeRaw(bad.map((id) => frame({ jsonrpc: '2.0', id, method: 'session.list' })).join(''));
    backend.writeRaw(frame({ jsonrpc: '2.0', id: 'after', method: 'session.list' }));
    await vi.waitFor(() => expect(rawAnswers(backend)).toHaveLength(ids.length + bad.length + 1));
    for (const id of [...ids, 'after']) {
      expect(rawAnswers(backend).filter((a) => a.id === id && a.result)).toEqual([{ jsonrpc: '2.0', id, result: { sessions: [] } }]);
    }
    const refusals = rawAnswers(backend).filter((a) => a.error);
    expect(refusals).toHaveLength(bad.length);
    for (const r of refusals) {
      expect(r).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest } });
      expect(r.error!.message).toMatch(/"id" must be a string, a number or null/);
    }
  });

  it("answers methods named after Object.prototype's members, and session ids like __proto__, as unknown; keeps serving", async () => {
    const backend = await start();
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
    backend.writeRaw(names.map((method, i) => frame({ jsonrpc: '2.0', id: `m${i}`, method, params: {} })).join(''));
    backend.writeRaw(names.map((sid, i) => frame({ jsonrpc: '2.0', id: `s${i}`, method: 'session.history', params: { session_id: sid } })).join(''));
    backend.writeRaw(`{"jsonrpc":"2.0","id":"p","method":"session.list","params":{"__proto__":{"limit":"x"}}}\n`);
    await vi.waitFor(() => expect(rawAnswers(backend)).toHaveLength(names.length * 2 + 1));
    names.forEach((method, i) => expect(rawAnswer(backend, `m${i}`)).toMatchObject({ error: { code: ErrorCode.MethodNotFound } }));
    names.forEach((sid, i) => expect(rawAnswer(backend, `s${i}`)).toMatchObject({ error: { code: ErrorCode.SessionNotFound, message: expect.stringContaining(sid) } }));
    expect(rawAnswer(backend, 'p')).toMatchObject({ result: { sessions: [] } });
  });

  it('refuses "jsonrpc" other than "2.0" and frames that are neither request, notification nor response', async () => {
    const backend = await start();
    backend.writeRaw(
      frame({ jsonrpc: '1.0', id: 1, method: 'session.list' }) +
        frame({ id: 2, method: 'session.list' }) +
        frame({ jsonrpc: '2.0', id: 3 }) +
        frame({ jsonrpc: '2.0', id: 4, method: 'session.list', params: 'text' }) +
        frame([]) +
        frame({ jsonrpc: '2.0', id: 5, method: 'session.list' }),
    );
    await vi.waitFor(() => expect(rawAnswers(backend)).toHaveLength(6));
    expect(rawAnswer(backend, 1)?.error).toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringContaining('"jsonrpc" must be the string "2.0", not "1.0"') });
    expect(rawAnswer(backend, 2)?.error).toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringContaining('not missing') });
    expect(rawAnswer(backend, 3)?.error).toMatchObject({ code: ErrorCode.InvalidRequest });
    expect(rawAnswer(backend, 4)?.error).toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringContaining('"params"') });
    expect(rawAnswer(backend, null)?.error).toMatchObject({ code: ErrorCode.InvalidRequest, message: 'Invalid request: an empty batch' });
    expect(rawAnswer(backend, 5)).toMatchObject({ result: { sessions: [] } });
  });

  it('serves a batch as one array of answers', async () => {
    const backend = await start();
    backend.writeRaw(
      frame([
        { jsonrpc: '2.0', id: 'b1', method: 'session.list', params: {} },
        { jsonrpc: '2.0', method: 'no.such.notification' },
        { jsonrpc: '2.0', id: 'b2', method: 'no.such.method' },
        42,
      ]),
    );
    await vi.waitFor(() => expect(backend.rawLines.some((l) => l.startsWith('['))).toBe(true));
    const batch = JSON.parse(backend.rawLines.find((l) => l.startsWith('['))!) as { id: unknown; error?: { code: number } }[];
    expect(batch.map((a) => [a.id, a.error?.code ?? 'ok']).sort()).toEqual(
      [
        ['b1', 'ok'],
        ['b2', ErrorCode.MethodNotFound],
        [null, ErrorCode.InvalidRequest],
      ].sort(),
    );
  });

  it('refuses a duplicate of an id still in progress, and still answers the first request', async () => {
    const backend = await start();
    const flag = path.join(tempDir('hermes-wire-'), 'go');
    // A request that stays in progress until the test lets it go.
    const wait = `while [ ! -e ${flag} ]; do sleep 0.05; done; echo released`;
    backend.writeRaw(frame({ jsonrpc: '2.0', id: 'dup', method: 'shell.exec', params: { command: wait } }));
    backend.writeRaw(frame({ jsonrpc: '2.0', id: 'dup', method: 'session.list', params: {} }));
    await vi.waitFor(() => expect(rawAnswer(backend, 'dup')).toBeDefined());
    expect(rawAnswer(backend, 'dup')).toEqual({
      jsonrpc: '2.0',
      id: 'dup',
      error: { code: ErrorCode.InvalidRequest, message: expect.stringContaining('id "dup" is already in use') },
    });
    fs.writeFileSync(flag, '');
    await vi.waitFor(() => expect(rawAnswers(backend).filter((a) => a.id === 'dup')).toHaveLength(2), { timeout: 15_000 });
    expect(rawAnswers(backend).filter((a) => a.id === 'dup')[1]).toMatchObject({ result: { stdout: 'released', code: 0 } });
  });

  it('ignores $/cancelRequest without params or with bad params and answers every later frame of the chunk', async () => {
    const backend = await start();
    const cancels = [
      { jsonrpc: '2.0', method: '$/cancelRequest' },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: {} },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: { nested: [1] } } },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: [] },
      { jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 'never-sent' } },
    ];
    const probes = Array.from({ length: 20 }, (_, i) => ({ jsonrpc: '2.0', id: `p${i}`, method: 'session.list', params: {} }));
    backend.writeRaw(probes.flatMap((p, i) => [cancels[i % cancels.length], p]).map(frame).join(''));
    await vi.waitFor(() => expect(rawAnswers(backend)).toHaveLength(probes.length));
    for (const p of probes) expect(rawAnswer(backend, p.id)).toMatchObject({ result: { sessions: [] } });
  });

  it('refuses a 16 MiB session.search query before searching, naming the field and its limit', async () => {
    const backend = await start();
    const query = 'quokka '.repeat(Math.floor((16 * 1024 * 1024 - 200) / 7));
    const error = await backend.request('session.search', { query }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: `Invalid params for session.search: \`query\` is ${query.length} characters long; the limit is ${ParamLimit.query}`,
      data: { field: 'query' },
    });
    // Refused without building anything from it: the process never came near the 1.2 GB seen before.
    const status = fs.readFileSync(`/proc/${backend.child.pid}/status`, 'utf8');
    const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)![1]);
    expect(peakKb).toBeLessThan(400 * 1024);
    expect(await backend.request('session.search', { query: 'quokka' })).toEqual({ hits: [] });
  });

  it('caps other fields too, naming each', async () => {
    const backend = await start();
    const cases = [
      ['session.create', { title: 't'.repeat(ParamLimit.title + 1) }, 'title'],
      ['prompt.submit', { session_id: 'x'.repeat(ParamLimit.id + 1), text: 'hi' }, 'session_id'],
      ['shell.exec', { command: 'e'.repeat(ParamLimit.command + 1) }, 'command'],
      ['session.list', { limit: ParamLimit.limit + 1 }, 'limit'],
      ['cli.exec', { argv: Array(ParamLimit.argv_items + 1).fill('a') }, 'argv'],
    ] as const;
    // A huge count is reported against the field's own cap, not a safe-integer bound.
    await expect(backend.connection.sendRequest('session.list', { limit: 1e300 })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: `Invalid params for session.list: \`limit\` is 1e+300; the limit is ${ParamLimit.limit}`,
    });
    for (const [method, params, field] of cases) {
      await expect(backend.connection.sendRequest(method, params), method).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message: expect.stringMatching(new RegExp(`^Invalid params for ${method.replace('.', '\\.')}: \`${field}\` .*limit is`)),
      });
    }
  });
});
