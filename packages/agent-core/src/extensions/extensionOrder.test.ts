/**
 * The loop calls the extension port at the documented points, in the documented order (PLUGINS.md),
 * with a recording port, the real runtime and the scripted model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import type { AgentEvent } from '../agent/events.ts';
import { silentLogger } from '../logging/logger.ts';
import { HermesRuntime } from '../runtime.ts';
import type { ExtensionPort } from './extensionPort.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

let server: ModelServer | null = null;
let runtime: HermesRuntime | null = null;
afterEach(async () => {
  runtime?.close();
  await server?.close();
});

function recordingPort(log: string[], realFile: string): ExtensionPort {
  return {
    async invokeHook(name, payload) {
      log.push(name);
      if (name === 'pre_llm_call') return [{ context: 'CONTEXT-FROM-HOOK' }, null];
      if (name === 'transform_tool_result') return [`transformed: ${String(payload.result).slice(0, 9)}`];
      return [];
    },
    async applyRequestMiddleware(kind, payload) {
      log.push(kind);
      // tool_request replaces the model's (wrong) path with a real one: hooks and the tool see the rewrite.
      if (kind === 'tool_request') return { payload: { ...(payload as object), path: realFile } as typeof payload, trace: [{ source: 'test' }] };
      return { payload, trace: [] };
    },
    runExecutionMiddleware(kind, payload, _context, terminal) {
      log.push(kind);
      return terminal(payload);
    },
  };
}

describe('extension port', () => {
  it('is called in the documented order around model and tool calls', async () => {
    const home = tempDir('hermes-ext-');
    const realFile = path.join(home, 'real.txt');
    fs.writeFileSync(realFile, 'the real content\n');
    server = await startModelServer({
      turns: [{ tool_calls: [{ id: 'c1', name: 'read_file', arguments: { path: 'wrong.txt' } }] }, { text: 'done' }],
    });
    const log: string[] = [];
    runtime = new HermesRuntime({
      home,
      env: {},
      logger: silentLogger,
      flags: { provider: 'custom', baseUrl: server.baseUrl, model: 'scripted-model' },
      extensions: recordingPort(log, realFile),
    });
    const events: AgentEvent[] = [];
    const session = runtime.openSession({ cwd: home, emit: (e) => events.push(e) });
    const result = await session.submit('read it');
    expect(result.status).toBe('complete');
    expect(log).toEqual([
      'pre_llm_call',
      'llm_request',
      'pre_api_request',
      'llm_execution',
      'post_api_request',
      'tool_request',
      'pre_tool_call',
      'tool_execution',
      'post_tool_call',
      'transform_tool_result',
      'llm_request',
      'pre_api_request',
      'llm_execution',
      'post_api_request',
      'post_llm_call',
      'on_session_end',
    ]);
    const first = server.requests[0]!.body as { messages: { role: string; content: string }[] };
    // pre_llm_call context rides on the user message sent to the model, never in the system prompt…
    expect(first.messages.at(-1)!.content).toBe('read it\n\nCONTEXT-FROM-HOOK');
    expect(first.messages[0]!.content).not.toContain('CONTEXT-FROM-HOOK');
    // …and is never stored.
    expect(session.history().find((m) => m.role === 'user')!.content).toBe('read it');
    const second = server.requests[1]!.body as { messages: { role: string; content: string }[] };
    expect(second.messages.find((m) => m.role === 'tool')!.content).toBe('transformed: 1|the rea');
    await session.close();
  });

  it('a pre_tool_call block stops the tool, and the model reads the block message', async () => {
    const home = tempDir('hermes-ext-');
    const target = path.join(home, 'keep.txt');
    server = await startModelServer({
      turns: [{ tool_calls: [{ name: 'write_file', arguments: { path: target, content: 'overwritten' } }] }, { text: 'ok' }],
    });
    runtime = new HermesRuntime({
      home,
      env: {},
      logger: silentLogger,
      flags: { provider: 'custom', baseUrl: server.baseUrl, model: 'scripted-model' },
      extensions: {
        invokeHook: async (name) => (name === 'pre_tool_call' ? [{ action: 'nope' }, { action: 'block', message: 'policy: no writes' }] : []),
        applyRequestMiddleware: async (_kind, payload) => ({ payload, trace: [] }),
        runExecutionMiddleware: (_kind, payload, _context, terminal) => terminal(payload),
      },
    });
    const events: AgentEvent[] = [];
    const session = runtime.openSession({ cwd: home, emit: (e) => events.push(e) });
    await session.submit('write');
    expect(fs.existsSync(target)).toBe(false);
    const complete = events.find((e) => e.type === 'tool.complete');
    expect(complete?.payload).toMatchObject({ blocked: true, result: 'policy: no writes' });
    await session.close();
  });
});
