/**
 * The serving end's requests answered by the RequestDispatcher, seen from a vscode-jsonrpc client over
 * real NDJSON pipes: answers have the shapes vscode-jsonrpc's own request handling gave them.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResponseError, type CancellationToken } from 'vscode-jsonrpc/node';
import { ErrorCode } from '../protocol/index.ts';
import { createNdjsonConnection, type RequestDispatcher } from './index.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function pair() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createNdjsonConnection(toServer, toClient, { answerBadFrames: true });
  const client = createNdjsonConnection(toClient, toServer);
  server.connection.listen();
  client.connection.listen();
  cleanups.push(() => {
    client.connection.dispose();
    server.connection.dispose();
  });
  const rawAnswers: unknown[] = [];
  toClient.on('data', (chunk: Buffer) => rawAnswers.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))));
  return { dispatcher: server.dispatcher!, server: server.connection, client: client.connection, toServer, rawAnswers };
}

/** Sends request `id` of a method `slow` that answers 'stopped' once cancelled; resolves with its token. */
async function startSlow(dispatcher: RequestDispatcher, toServer: PassThrough, id: number): Promise<CancellationToken> {
  let token: CancellationToken | undefined;
  dispatcher.on('slow', (_params, t) => {
    token = t;
    return new Promise((resolve) => t.onCancellationRequested(() => resolve('stopped')));
  });
  toServer.write(`{"jsonrpc":"2.0","id":${id},"method":"slow","params":{}}\n`);
  return vi.waitFor(() => token ?? Promise.reject(new Error('the slow request has not started')));
}

describe('RequestDispatcher', () => {
  it('answers a result, and a result of undefined as null', async () => {
    const { dispatcher, client, rawAnswers } = pair();
    dispatcher.on('sum', (params) => (params as { a: number; b: number }).a + (params as { a: number; b: number }).b);
    dispatcher.on('nothing', () => undefined);
    dispatcher.on('later', async (params) => ({ got: params }));
    expect(await client.sendRequest('sum', { a: 2, b: 3 })).toBe(5);
    expect(await client.sendRequest('nothing', {})).toBeNull();
    expect(rawAnswers.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    expect(await client.sendRequest('later', { x: [1] })).toEqual({ got: { x: [1] } });
  });

  it('gives a handler the params as sent, undefined when the request has none', async () => {
    const { dispatcher, toServer, rawAnswers } = pair();
    const seen: unknown[] = [];
    dispatcher.on('look', (params) => (seen.push(params), 'ok'));
    toServer.write('{"jsonrpc":"2.0","id":"a","method":"look"}\n{"jsonrpc":"2.0","id":"b","method":"look","params":{"k":1}}\n');
    await vi.waitFor(() => expect(rawAnswers).toHaveLength(2));
    expect(seen).toEqual([undefined, { k: 1 }]);
    expect(rawAnswers).toEqual([
      { jsonrpc: '2.0', id: 'a', result: 'ok' },
      { jsonrpc: '2.0', id: 'b', result: 'ok' },
    ]);
  });

  it('answers a ResponseError returned, thrown or rejected with its code, message and data', async () => {
    const { dispatcher, client } = pair();
    dispatcher.on('returns', () => new ResponseError(4001, 'returned', { field: 'x' }));
    dispatcher.on('throws', () => {
      throw new ResponseError(4002, 'thrown');
    });
    dispatcher.on('rejects', () => Promise.reject(new ResponseError(4003, 'rejected')));
    await expect(client.sendRequest('returns', {})).rejects.toMatchObject({ code: 4001, message: 'returned', data: { field: 'x' } });
    await expect(client.sendRequest('throws', {})).rejects.toMatchObject({ code: 4002, message: 'thrown' });
    await expect(client.sendRequest('rejects', {})).rejects.toMatchObject({ code: 4003, message: 'rejected' });
  });

  it('answers any other failure -32603 naming the method and the message, and keeps serving', async () => {
    const { dispatcher, client } = pair();
    dispatcher.on('breaks', () => {
      throw new TypeError('x is not a function');
    });
    dispatcher.on('breaksLater', async () => {
      throw 'a string';
    });
    dispatcher.on('fine', () => 'fine');
    await expect(client.sendRequest('breaks', {})).rejects.toMatchObject({ code: ErrorCode.InternalError, message: 'Request breaks failed with message: x is not a function' });
    await expect(client.sendRequest('breaksLater', {})).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'Request breaksLater failed unexpectedly without providing any details.',
    });
    expect(await client.sendRequest('fine', {})).toBe('fine');
  });

  it('answers an unknown method -32601, or what onUnknown says', async () => {
    const { dispatcher, client } = pair();
    await expect(client.sendRequest('no.such', {})).rejects.toMatchObject({ code: ErrorCode.MethodNotFound, message: 'Unhandled method no.such' });
    dispatcher.onUnknown((method) => new ResponseError(ErrorCode.MethodNotFound, `${method} is not served here`));
    await expect(client.sendRequest('no.such', {})).rejects.toMatchObject({ code: ErrorCode.MethodNotFound, message: 'no.such is not served here' });
  });

  it('fires the token of a request still running on $/cancelRequest, and still answers it', async () => {
    const { dispatcher, toServer, rawAnswers } = pair();
    const token = await startSlow(dispatcher, toServer, 7);
    expect(token.isCancellationRequested).toBe(false);
    toServer.write('{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}\n');
    await vi.waitFor(() => expect(rawAnswers).toEqual([{ jsonrpc: '2.0', id: 7, result: 'stopped' }]));
    expect(token.isCancellationRequested).toBe(true);
  });

  it('answers a request named $/cancelRequest -32601, cancelling nothing, and frees its id', async () => {
    const { dispatcher, toServer, rawAnswers } = pair();
    const token = await startSlow(dispatcher, toServer, 1);
    // The client's 1 is the gate's internal 1 too: a cancel read from this request's params would hit it.
    toServer.write('{"jsonrpc":"2.0","id":2,"method":"$/cancelRequest","params":{"id":1}}\n');
    await vi.waitFor(() => expect(rawAnswers).toHaveLength(1));
    expect(rawAnswers[0]).toEqual({ jsonrpc: '2.0', id: 2, error: { code: ErrorCode.MethodNotFound, message: 'Unhandled method $/cancelRequest' } });
    expect(token.isCancellationRequested).toBe(false);
    dispatcher.on('echo', (params) => params);
    toServer.write('{"jsonrpc":"2.0","id":2,"method":"echo","params":{"again":true}}\n');
    await vi.waitFor(() => expect(rawAnswers).toHaveLength(2));
    expect(rawAnswers[1]).toEqual({ jsonrpc: '2.0', id: 2, result: { again: true } });
  });

  it('answers nothing once its connection is disposed', async () => {
    const { dispatcher, server, toServer, rawAnswers } = pair();
    dispatcher.on('echo', (params) => params);
    toServer.write('{"jsonrpc":"2.0","id":1,"method":"echo","params":{}}\n');
    await vi.waitFor(() => expect(rawAnswers).toHaveLength(1));
    server.dispose();
    toServer.write('{"jsonrpc":"2.0","id":2,"method":"echo","params":{}}\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(rawAnswers).toHaveLength(1);
  });
});
