import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_METHOD, ErrorCode, type HermesEvent } from '@hermes/rpc-server/protocol';
import { createNdjsonConnection } from '@hermes/rpc-server/transport';
import { CancellationTokenSource, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { silentLogger } from '../logging/logger.ts';
import { HermesClient, RpcError } from './hermesClient.ts';

/** A real client wired to a real server-side connection over in-memory pipes. */
function pair() {
  const toClient = new PassThrough();
  const toServer = new PassThrough();
  const client = new HermesClient(toClient, toServer, silentLogger);
  const { connection: server } = createNdjsonConnection(toServer, toClient);
  return { client, server, toClient };
}

const open: MessageConnection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.dispose();
});

function event(type: string, session_id?: string, payload?: unknown): HermesEvent {
  return { type, session_id, payload } as HermesEvent;
}

describe('HermesClient', () => {
  it('hands events that arrived before anyone subscribed to the first subscriber, in order', async () => {
    const { client, server } = pair();
    server.listen();
    open.push(server);
    await server.sendNotification(EVENT_METHOD, event('gateway.ready', undefined, { version: '1', protocol: 1, pid: 7 }));
    await server.sendNotification(EVENT_METHOD, event('session.title', 's1', { title: 'hello' }));
    expect(await client.ready()).toEqual({ version: '1', protocol: 1, pid: 7 });
    // A request round trip: its answer comes after the client has handled everything sent before it.
    await server.sendRequest('secret', { session_id: 's1', env_var: 'X', prompt: 'x' }).catch(() => undefined);

    const seen: string[] = [];
    client.onEvent((e) => seen.push(e.type));
    expect(seen).toEqual(['gateway.ready', 'session.title']);
    await server.sendNotification(EVENT_METHOD, event('message.start', 's1'));
    await vi.waitFor(() => expect(seen).toEqual(['gateway.ready', 'session.title', 'message.start']));
    client.dispose();
  });

  it('passes on only events it knows with the payload their type carries, so the view can rely on the protocol types', async () => {
    const { client, server } = pair();
    server.listen();
    open.push(server);
    const seen: HermesEvent[] = [];
    client.onEvent((e) => seen.push(e));
    await server.sendNotification(EVENT_METHOD, event('teleport.start', 's1', { to: 'moon' }));
    await server.sendNotification(EVENT_METHOD, event('tool.start', 's1'));
    await server.sendNotification(EVENT_METHOD, event('session.title', 's1', 'not an object'));
    await server.sendNotification(EVENT_METHOD, event('message.start', 's1'));
    await server.sendNotification(EVENT_METHOD, event('session.title', 's1', { title: 'kept' }));
    // A request round trip: its answer comes after the client has handled everything sent before it.
    await server.sendRequest('secret', { session_id: 's1', env_var: 'X', prompt: 'x' }).catch(() => undefined);
    expect(seen).toEqual([event('message.start', 's1'), event('session.title', 's1', { title: 'kept' })]);
  });

  it('returns results and turns error answers into RpcError with the code', async () => {
    const { client, server } = pair();
    server.onRequest('prompt.submit', (params: { text: string }) =>
      params.text === 'hi'
        ? { status: 'streaming' }
        : new ResponseError(ErrorCode.AgentUnavailable, 'no model configured: run hermes model'),
    );
    server.listen();
    open.push(server);
    await expect(client.request('prompt.submit', { session_id: 's', text: 'hi' })).resolves.toEqual({ status: 'streaming' });
    const failure = client.request('prompt.submit', { session_id: 's', text: 'other' });
    await expect(failure).rejects.toBeInstanceOf(RpcError);
    await expect(failure).rejects.toMatchObject({ code: 5032, message: 'no model configured: run hermes model' });
    client.dispose();
  });

  it('hands approval and clarify requests to the prompt handlers with their request id, and returns the answers', async () => {
    const { client, server } = pair();
    server.listen();
    open.push(server);
    const seen: string[] = [];
    client.handlePrompts({
      approval: async (id, params) => {
        seen.push(`${id} ${params.command}`);
        return { choice: 'session' };
      },
      clarify: async (id, params) => {
        seen.push(`${id} ${params.question}`);
        return { answer: 'blue' };
      },
    });
    const approval = { session_id: 's', tool_name: 'terminal', command: 'rm -rf x', description: 'd', choices: ['once', 'deny'] };
    await expect(server.sendRequest('approval', approval)).resolves.toEqual({ choice: 'session' });
    await expect(server.sendRequest('clarify', { session_id: 's', question: 'Which?' })).resolves.toEqual({ answer: 'blue' });
    // vscode-jsonrpc numbers its requests; the hermes backend's ids are `srq-N` strings.
    expect(seen).toEqual(['0 rm -rf x', '1 Which?']);
    await expect(server.sendRequest('approval', { session_id: 's' })).rejects.toMatchObject({ code: -32602 });
    await expect(server.sendRequest('secret', { session_id: 's' })).rejects.toMatchObject({ code: -32601 });
    client.dispose();
  });

  it('tells the handler when the backend cancels a request at the JSON-RPC level', async () => {
    const { client, server } = pair();
    server.listen();
    open.push(server);
    let aborted: () => void = () => undefined;
    const wasAborted = new Promise<void>((resolve) => (aborted = resolve));
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    client.handlePrompts({
      approval: (_id, _params, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted();
            resolve({ choice: 'deny' });
          });
          started();
        }),
      clarify: async () => ({ answer: '' }),
    });
    const source = new CancellationTokenSource();
    const answer = server.sendRequest('approval', { session_id: 's', tool_name: 't', command: 'c', description: '', choices: [] }, source.token);
    // Cancel once the request is being handled: a cancel that overtakes its request is ignored by design.
    await handlerStarted;
    source.cancel();
    await wasAborted;
    // Whatever reaches the backend after a cancel is a deny, never an approval.
    await expect(answer).resolves.toEqual({ choice: 'deny' });
    client.dispose();
  });

  it('answers approval, clarify and secret requests with "method not found" until something handles them', async () => {
    const { client, server } = pair();
    server.listen();
    open.push(server);
    for (const method of ['approval', 'clarify', 'secret']) {
      const answer = server.sendRequest(method, { session_id: 's' });
      await expect(answer).rejects.toMatchObject({ code: -32601 });
    }
    client.dispose();
  });

  it('rejects a pending request and reports the close when the backend stream ends', async () => {
    const { client, server, toClient } = pair();
    server.onRequest('session.create', () => new Promise(() => undefined));
    server.listen();
    open.push(server);
    let closed = false;
    client.onClose(() => {
      closed = true;
    });
    const pending = client.request('session.create', { cols: 80 });
    await new Promise((r) => setTimeout(r, 10));
    toClient.end();
    await expect(pending).rejects.toBeInstanceOf(RpcError);
    expect(closed).toBe(true);
    await expect(client.request('session.list', {})).rejects.toThrow(/closed/);
  });

  it('delivers events and answers in the order they arrived, also when many come in one chunk', async () => {
    const toClient = new PassThrough();
    const toServer = new PassThrough();
    const client = new HermesClient(toClient, toServer, silentLogger);
    const seen: string[] = [];
    client.onEvent((e) => seen.push(`${e.type} ${(e.payload as { title: string }).title}`));
    const frame = (params: object) => `${JSON.stringify({ jsonrpc: '2.0', ...params })}\n`;
    const titled = (title: string) => frame({ method: EVENT_METHOD, params: event('session.title', 's1', { title }) });
    toClient.write(Array.from({ length: 500 }, (_, i) => titled(`early ${i}`)).join(''));
    await vi.waitFor(() => expect(seen).toHaveLength(500));
    const answered = client.request('session.list', {}).then(() => seen.push('answer'));
    const request = await new Promise<{ id: number }>((resolve) => toServer.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString('utf8')))));
    // One chunk: an event, the answer, then events that must not overtake it.
    toClient.write(titled('before') + frame({ id: request.id, result: { sessions: [] } }) + titled('after 1') + titled('after 2'));
    await answered;
    await vi.waitFor(() => expect(seen).toHaveLength(504));
    expect(seen.slice(0, 500)).toEqual(Array.from({ length: 500 }, (_, i) => `session.title early ${i}`));
    expect(seen.slice(500)).toEqual(['session.title before', 'answer', 'session.title after 1', 'session.title after 2']);
    client.dispose();
  });

  it('delivers what arrived before the backend stream ended, answers and events queued behind them included, then closes', async () => {
    const toClient = new PassThrough();
    const toServer = new PassThrough();
    const client = new HermesClient(toClient, toServer, silentLogger);
    const seen: string[] = [];
    client.onEvent((e) => seen.push(`${e.type} ${(e.payload as { title: string }).title}`));
    let closed = false;
    client.onClose(() => {
      closed = true;
    });
    const frame = (params: object) => `${JSON.stringify({ jsonrpc: '2.0', ...params })}\n`;
    const titled = (title: string) => frame({ method: EVENT_METHOD, params: event('session.title', 's1', { title }) });
    const answered = client.request('session.list', {}).then(() => seen.push('answer'));
    const request = await new Promise<{ id: number }>((resolve) => toServer.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString('utf8')))));
    // A backend that answers, streams its last words and dies: all of it in the pipe before the end.
    toClient.end(frame({ id: request.id, result: { sessions: [] } }) + titled('last words 1') + titled('last words 2'));
    await answered;
    await vi.waitFor(() => expect(closed).toBe(true));
    expect(seen).toEqual(['answer', 'session.title last words 1', 'session.title last words 2']);
  });
});
