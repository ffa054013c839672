/**
 * The wrapper and the contract check, in process over a real NDJSON connection: a handler whose
 * result disagrees with its method's schema is answered -32603 naming the method and the field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { createFileLogger } from '@hermes/agent-core';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode, Method, type ResultOf } from '../protocol/index.ts';
import { MethodSchemas } from '../protocol/schemas.ts';
import { createNdjsonConnection } from '../transport/index.ts';
import type { HandlerTable } from '../handlers/context.ts';
import { serveHandlers } from './backend.ts';
import { CHECK_RESULTS_ENV, checkEvent } from './contractCheck.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tempLog() {
  const dir = tempDir('hermes-contract-');
  const file = path.join(dir, 'backend.log');
  return { logger: createFileLogger(file), read: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '') };
}

/** Serves `table` on one end of a pair of pipes and returns a client connection on the other. */
function serve(table: HandlerTable, check: boolean) {
  const previous = process.env[CHECK_RESULTS_ENV];
  if (check) process.env[CHECK_RESULTS_ENV] = '1';
  else delete process.env[CHECK_RESULTS_ENV];
  cleanups.push(() => (previous === undefined ? delete process.env[CHECK_RESULTS_ENV] : (process.env[CHECK_RESULTS_ENV] = previous)));
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const log = tempLog();
  const server = createNdjsonConnection(toServer, toClient, { answerBadFrames: true });
  serveHandlers(server.dispatcher!, table, { logger: log.logger });
  server.connection.listen();
  const client = createNdjsonConnection(toClient, toServer);
  client.connection.listen();
  cleanups.push(() => {
    client.connection.dispose();
    server.connection.dispose();
  });
  return { client: client.connection, log };
}

const badToolsets = { toolsets: [{ name: 'files', enabled: true, tools: ['read_file'] }] } as unknown as ResultOf<'tools.list'>;

describe('the method wrapper', () => {
  it('has a params and a result schema for exactly the methods of Method', () => {
    expect(Object.keys(MethodSchemas).sort()).toEqual(Object.values(Method).sort());
  });

  it('in check mode answers a result missing a field with -32603 naming the method and the field, and logs it', async () => {
    const { client, log } = serve({ 'tools.list': () => badToolsets }, true);
    await expect(client.sendRequest('tools.list', {})).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'tools.list returned a result its schema refuses: `toolsets.0.description` is missing',
      data: { field: 'toolsets.0.description' },
    });
    expect(log.read()).toContain('contract check: tools.list returned a result its schema refuses');
  });

  it('in check mode refuses a config value left out (a key not set is answered null)', async () => {
    const { client } = serve({ 'config.get': () => ({}) as ResultOf<'config.get'>, 'config.set': ({ key }) => ({ key, value: undefined }) }, true);
    await expect(client.sendRequest('config.get', { key: 'x' })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'config.get returned a result its schema refuses: `value` is missing',
    });
    await expect(client.sendRequest('config.set', { key: 'x', value: 1 })).rejects.toMatchObject({ code: ErrorCode.InternalError });
  });

  it('in check mode refuses a field the schema does not name, and a field of the wrong type', async () => {
    const { client } = serve(
      {
        'session.usage': () => ({ model: 'm', input: 1, output: 1, reasoning: 0, total: 2, calls: 1, cached: 3 }) as ResultOf<'session.usage'>,
        'process.stop': async () => ({ killed: '2' }) as unknown as ResultOf<'process.stop'>,
      },
      true,
    );
    await expect(client.sendRequest('session.usage', { session_id: 's' })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'session.usage returned a result its schema refuses: `cached` is not in the schema',
    });
    await expect(client.sendRequest('process.stop', {})).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'process.stop returned a result its schema refuses: `killed` must be a number',
    });
  });

  it('outside check mode sends the result as the handler returned it', async () => {
    const { client } = serve({ 'tools.list': () => badToolsets }, false);
    expect(await client.sendRequest('tools.list', {})).toEqual(badToolsets);
  });

  it('hands the handler its params parsed with the method schema, and refuses bad ones with -32602 naming the field', async () => {
    const seen: unknown[] = [];
    const { client } = serve(
      {
        'session.list': (params) => {
          seen.push(params);
          return { sessions: [] };
        },
      },
      true,
    );
    expect(await client.sendRequest('session.list', { limit: 5, extra: 'ignored' })).toEqual({ sessions: [] });
    expect(seen).toEqual([{ limit: 5 }]);
    await expect(client.sendRequest('session.list', { limit: 0 })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid params for session.list: `limit` must be a positive whole number',
      data: { field: 'limit' },
    });
    expect(seen).toHaveLength(1);
  });
});

describe('the event check', () => {
  it('in check mode throws for a payload its schema refuses, naming the event and the field', () => {
    process.env[CHECK_RESULTS_ENV] = '1';
    cleanups.push(() => delete process.env[CHECK_RESULTS_ENV]);
    const { logger, read } = tempLog();
    expect(() => checkEvent('tool.start', { tool_id: 't', name: 'terminal', context: 'ls' }, logger)).not.toThrow();
    expect(() => checkEvent('tool.start', { toolId: 't', name: 'terminal', context: 'ls' }, logger)).toThrow(
      'contract check: a tool.start event its schema refuses: `tool_id` is missing',
    );
    expect(read()).toContain('a tool.start event its schema refuses');
  });
});
