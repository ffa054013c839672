import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '@hermes/agent-core';
import { firstBlockOf, loadedHost } from '../testing/dispatchFixtures.ts';

describe('hooks', () => {
  it('run in registration order, isolated; a throw or a timeout warns naming plugin and hook', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerHook('post_tool_call', (p) => 'a:' + p.tool_name + ':' + p.telemetry_schema_version);`,
      b: `ctx.registerHook('post_tool_call', () => { throw new Error('hook bug'); });\nctx.registerHook('post_tool_call', () => new Promise(() => {}));`,
      c: `ctx.registerHook('post_tool_call', () => 'c');\nctx.registerHook('post_tool_call', () => null);\nctx.registerHook('my_future_hook', () => 'f');`,
    });
    expect(await h.port.invokeHook('post_tool_call', { tool_name: 't' })).toEqual(['a:t:hermes.observer.v1', 'c']);
    const warnings = logger.warnings().join('\n');
    expect(warnings).toMatch(/plugin b: post_tool_call hook callback raised Error: hook bug/);
    expect(warnings).toMatch(/plugin b: post_tool_call hook callback timed out after 0.05 s/);
    expect(warnings).toMatch(/unknown hook "my_future_hook"/);
    expect(await h.port.invokeHook('my_future_hook' as 'post_tool_call', {})).toEqual(['f']);
  });

  it('pre_tool_call: the first valid block wins; a throwing or hanging callback blocks (fails closed)', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerHook('pre_tool_call', () => ({ action: 'block' }));\nctx.registerHook('pre_tool_call', () => ({ action: 'block', message: 'first' }));`,
      b: `ctx.registerHook('pre_tool_call', () => ({ action: 'block', message: 'second' }));`,
    });
    expect(firstBlockOf(await h.port.invokeHook('pre_tool_call', { tool_name: 'x' }))).toBe('first');
    const failing = await loadedHost({ t: `ctx.registerHook('pre_tool_call', (p) => { if (p.tool_name === 'x') throw new Error('policy crashed'); });` });
    expect(firstBlockOf(await failing.h.port.invokeHook('pre_tool_call', { tool_name: 'x' }))).toMatch(/plugin t raised Error: policy crashed/);
    expect(firstBlockOf(await failing.h.port.invokeHook('pre_tool_call', { tool_name: 'y' }))).toBeNull();
    const hanging = await loadedHost({ t: `ctx.registerHook('pre_tool_call', () => new Promise(() => {}));` });
    expect(firstBlockOf(await hanging.h.port.invokeHook('pre_tool_call', {}))).toMatch(/timed out/);
  });
});

describe('request middleware', () => {
  it('applies whole replacements in order, traces each, skips throwing callbacks, carries versions and context', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerMiddleware('tool_request', (p) => ({ args: { ...p.args, path: 'fixed' }, source: 'fixer', reason: 'bad path' }));`,
      b: `ctx.registerMiddleware('tool_request', () => { throw new Error('mw bug'); });`,
      c: `ctx.registerMiddleware('tool_request', (p) => ({ args: { ...p.args, seen: [p.tool_name, p.session_id, p.original_args.path, p.middleware_schema_version, p.telemetry_schema_version] } }));\nctx.registerMiddleware('tool_request', () => ({ nonsense: 1 }));`,
    });
    const original = { path: 'wrong' };
    const out = await h.port.applyRequestMiddleware('tool_request', original, { tool_name: 'read_file', session_id: 's1' });
    expect(out.payload).toEqual({ path: 'fixed', seen: ['read_file', 's1', 'wrong', 'hermes.middleware.v1', 'hermes.observer.v1'] });
    expect(out.trace).toEqual([{ source: 'fixer', reason: 'bad path' }, { source: 'c' }]);
    expect(original).toEqual({ path: 'wrong' });
    expect(logger.warnings().join('\n')).toMatch(/plugin b: tool_request middleware raised Error: mw bug; skipped \(it receives: .*args, original_args/);
  });

  it('returns the very payload when no middleware is registered', async () => {
    const { h } = await loadedHost({});
    const request = { model: 'm' };
    expect(await h.port.applyRequestMiddleware('llm_request', request, {})).toEqual({ payload: request, trace: [] });
  });
});

describe('execution middleware', () => {
  it('nests in registration order (first outermost) and may replace the payload', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', async (p) => 'a(' + await p.next_call({ ...p.args, by: 'a' }) + ')');`,
      b: `ctx.registerMiddleware('tool_execution', async (p) => 'b(' + await p.next_call() + ')');`,
    });
    const seen: unknown[] = [];
    const result = await h.port.runExecutionMiddleware('tool_execution', { q: 1 }, {}, async (p) => (seen.push(p), 'real'));
    expect(result).toBe('a(b(real))');
    expect(seen).toEqual([{ q: 1, by: 'a' }]);
  });

  it('fails open: a throw before next_call is skipped, a throw after keeps the result; nothing runs twice', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', () => { throw new Error('before'); });`,
      b: `ctx.registerMiddleware('tool_execution', async (p) => { await p.next_call(); throw new Error('after'); });`,
      c: `ctx.registerMiddleware('tool_execution', async (p) => { const one = await p.next_call(); const two = await p.next_call(); return one + '|' + two; });`,
    });
    let runs = 0;
    const terminal = async () => `run${++runs}`;
    expect(await h.port.runExecutionMiddleware('tool_execution', {}, { tool_name: 't' }, terminal)).toBe('run1|run1');
    expect(runs).toBe(1);
    await h.port.runExecutionMiddleware('tool_execution', {}, { tool_name: 't' }, terminal);
    const warnings = logger.warnings();
    expect(warnings.filter((w) => w.includes('plugin a') && w.includes('before next_call'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('plugin b') && w.includes('after next_call'))).toHaveLength(1);
    expect(logger.lines.filter((l) => l.level === 'debug' && l.message.includes('plugin a')).length).toBe(1);
    await h.reload();
    await h.port.runExecutionMiddleware('tool_execution', {}, { tool_name: 't' }, terminal);
    expect(logger.warnings().filter((w) => w.includes('plugin a') && w.includes('before next_call'))).toHaveLength(2);
  });

  it('does not turn a failure of the real call into success', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', async (p) => { await p.next_call(); return 'never'; });`,
      b: `ctx.registerMiddleware('tool_execution', async (p) => { try { return await p.next_call(); } finally { throw new Error('cleanup failed'); } });`,
    });
    await expect(h.port.runExecutionMiddleware('tool_execution', {}, {}, async () => Promise.reject(new Error('tool crashed')))).rejects.toThrow(/cleanup failed|tool crashed/);
    const { h: plain } = await loadedHost({ a: `ctx.registerMiddleware('tool_execution', (p) => p.next_call());` });
    await expect(plain.port.runExecutionMiddleware('tool_execution', {}, {}, async () => Promise.reject(new Error('tool crashed')))).rejects.toThrow('tool crashed');
  });
});

describe('the seed contract of execution middleware', () => {
  it('next_call resolves to the tool result; a string return is the result, undefined keeps it, other values become JSON', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', async (p) => { const result = await p.next_call(p.args); return result + ' [mw]'; });`,
      b: `ctx.registerMiddleware('tool_execution', async (p) => { await p.next_call(); });`,
    });
    expect(await h.port.runExecutionMiddleware('tool_execution', { x: 1 }, {}, async (args) => `ran ${JSON.stringify(args)}`)).toBe('ran {"x":1} [mw]');
    const objects = await loadedHost({ o: `ctx.registerMiddleware('tool_execution', async (p) => ({ wrapped: await p.next_call() }));` });
    expect(await objects.h.port.runExecutionMiddleware('tool_execution', {}, {}, async () => 'r')).toBe('{"wrapped":"r"}');
    expect(objects.logger.warnings().join('\n')).toMatch(/plugin o: tool_execution middleware returned a object, not a string/);
    expect(logger.warnings()).toEqual([]);
  });

  it('llm_execution: a string replaces the reply text, a response object is the response, undefined keeps it', async () => {
    const response = { text: 'real', reasoning: '', toolCalls: [], finishReason: 'stop', usage: null };
    const { h } = await loadedHost({
      a: `ctx.registerMiddleware('llm_execution', async (p) => (await p.next_call(p.request)).text + ' [mw]');`,
      b: `ctx.registerMiddleware('llm_execution', async (p) => { const r = await p.next_call(); return { ...r, text: r.text.toUpperCase() }; });`,
      c: `ctx.registerMiddleware('llm_execution', async (p) => undefined);`,
    });
    expect(await h.port.runExecutionMiddleware('llm_execution', { q: 1 }, {}, async () => response)).toEqual({ ...response, text: 'REAL [mw]' });
  });

  it('llm_execution: response fields of the wrong shape are ignored (noted, named), the rest is used; the turn never gets a broken response', async () => {
    const response = { text: 'real', reasoning: '', toolCalls: [{ id: 'c1', type: 'function', function: { name: 't', arguments: '{}' } }], finishReason: 'tool_calls', usage: { input: 1, output: 2, reasoning: 0 } };
    const run = async (body: string) => {
      const { h, logger } = await loadedHost({ m: `ctx.registerMiddleware('llm_execution', async (p) => { const r = await p.next_call(); ${body} });` });
      return { out: await h.port.runExecutionMiddleware('llm_execution', {}, {}, async () => response), warnings: logger.warnings().join('\n') };
    };
    const badCalls = await run(`return { ...r, text: 'changed', toolCalls: [{ bogus: 1 }], usage: 'lots', finishReason: 7 };`);
    expect(badCalls.out).toEqual({ ...response, text: 'changed' });
    expect(badCalls.warnings).toMatch(/plugin m: llm_execution middleware returned a response whose `toolCalls`, `finishReason`, `usage` have the wrong shape/);
    const alone = await run(`return { text: 'answered alone', usage: { input: 3, output: 4 } };`);
    expect(alone.out).toEqual({ ...response, text: 'answered alone', usage: { input: 3, output: 4, reasoning: 0 } });
    expect(alone.warnings).toBe('');
  });

  it('next_call with a payload that cannot be used (not an object; a request without messages) runs with the current one, noted', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', (p) => p.next_call('echo x'));\nctx.registerMiddleware('llm_execution', (p) => p.next_call({}));`,
    });
    const seen: unknown[] = [];
    expect(await h.port.runExecutionMiddleware('tool_execution', { command: 'ls' }, {}, async (a) => (seen.push(a), 'ran'))).toBe('ran');
    const request = { messages: [{ role: 'user', content: 'hi' }] };
    await h.port.runExecutionMiddleware('llm_execution', request, {}, async (r) => (seen.push(r), { text: 't', reasoning: '', toolCalls: [], finishReason: 'stop', usage: null }));
    expect(seen).toEqual([{ command: 'ls' }, request]);
    const warnings = logger.warnings().join('\n');
    expect(warnings).toMatch(/plugin a: tool_execution middleware passed next_call\(\) a payload that cannot be used \(the tool arguments must be an object\)/);
    expect(warnings).toMatch(/plugin a: llm_execution middleware passed next_call\(\) a payload that cannot be used \(`request.messages` must be a list/);
  });

  it('llm_request: a replacement that is no request (no messages list) is ignored with a warning', async () => {
    const { h, logger } = await loadedHost({
      a: `ctx.registerMiddleware('llm_request', () => ({ request: {} }));`,
      b: `ctx.registerMiddleware('llm_request', (p) => ({ request: { ...p.request, messages: 'nope' } }));`,
      c: `ctx.registerMiddleware('llm_request', (p) => ({ request: { ...p.request, tools: [] } }));`,
    });
    const request = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'x' }], toolChoice: 'auto' };
    const out = await h.port.applyRequestMiddleware('llm_request', request, {});
    expect(out.payload).toEqual({ ...request, tools: [] });
    expect(out.trace).toEqual([{ source: 'c' }]);
    expect(logger.warnings().filter((w) => /plugin [ab]: llm_request middleware returned a replacement that cannot be used \(`request.messages` must be a list/.test(w))).toHaveLength(2);
  });

  it('callbacks get copies: mutating the payload changes nothing but what is passed to next_call', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerMiddleware('tool_execution', async (p) => { p.args.path = 'evil'; p.original_args.path = 'evil'; return p.next_call(); });`,
    });
    const args = { path: 'good' };
    const seen: unknown[] = [];
    await h.port.runExecutionMiddleware('tool_execution', args, {}, async (a) => (seen.push(a), 'ok'));
    expect(seen).toEqual([{ path: 'good' }]);
    expect(args).toEqual({ path: 'good' });
  });
});

describe('hook payloads are copies', () => {
  it('a hook mutating args or messages changes nothing the caller keeps, nor what the next hook sees', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerHook('pre_tool_call', (p) => { p.args.command = 'rm -rf /'; p.args.nested.deep = 'x'; });\nctx.registerHook('pre_llm_call', (p) => { p.messages.push({ role: 'user', content: 'injected' }); p.messages[0].content = 'changed'; });`,
      b: `ctx.registerHook('pre_tool_call', (p) => p.args.command);\nctx.registerHook('pre_llm_call', (p) => String(p.messages.length) + p.messages[0].content);`,
    });
    const args = { command: 'ls', nested: { deep: 'y' }, fn: () => 1 };
    expect(await h.port.invokeHook('pre_tool_call', { args })).toEqual(['ls']);
    expect(args).toMatchObject({ command: 'ls', nested: { deep: 'y' } });
    const messages = [{ role: 'user', content: 'hi' }];
    expect(await h.port.invokeHook('pre_llm_call', { messages })).toEqual(['1hi']);
    expect(messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('an interrupted turn does not wait for plugin code', () => {
  const hang = `() => new Promise(() => {})`;

  it('hooks, request and execution middleware that never settle end when the turn signal fires', async () => {
    const { h } = await loadedHost({
      a: `ctx.registerHook('post_tool_call', ${hang});\nctx.registerHook('pre_tool_call', ${hang});\nctx.registerMiddleware('tool_request', ${hang});\nctx.registerMiddleware('llm_execution', ${hang});\nctx.registerMiddleware('tool_execution', async (p) => { await p.next_call(); return new Promise(() => {}); });`,
    }, 600); // a hook timeout far beyond the test's: only the signal can end these waits
    const controller = new AbortController();
    const reason = new Error('interrupted by the user');
    const waits = [
      h.port.applyRequestMiddleware('tool_request', {}, {}, controller.signal),
      h.port.runExecutionMiddleware('llm_execution', {}, {}, async () => ({ text: 'r', reasoning: '', toolCalls: [], finishReason: 'stop', usage: null }), controller.signal),
      h.port.runExecutionMiddleware('tool_execution', {}, {}, async () => 'ran', controller.signal),
    ].map((p) => p.then(() => 'settled', (e: unknown) => e));
    const hooks = [h.port.invokeHook('post_tool_call', {}, controller.signal), h.port.invokeHook('pre_tool_call', {}, controller.signal)];
    controller.abort(reason);
    expect(await Promise.all(waits)).toEqual([reason, reason, reason]);
    const [post, pre] = await Promise.all(hooks);
    expect(post).toEqual([]);
    expect(firstBlockOf(pre!)).toMatch(/interrupted/);
    // Once interrupted, a hook is still called (it observes) but not waited for.
    expect(await h.port.invokeHook('post_tool_call', {}, controller.signal)).toEqual([]);
  });

  it('a plugin tool whose handler never settles ends with the abort reason when the signal fires', async () => {
    const { tools } = await loadedHost({
      a: `ctx.registerTool({ name: 'hang', toolset: 'a', schema: { name: 'hang', description: 'd', parameters: { type: 'object', properties: {} } }, handler: ${hang} });`,
    });
    const controller = new AbortController();
    const context = { signal: controller.signal } as unknown as Parameters<ToolDefinition['handler']>[1];
    const running = Promise.resolve(tools.get('hang')!.handler({}, context)).then(() => 'settled', (e: unknown) => e);
    const reason = new Error('interrupted by the user');
    controller.abort(reason);
    expect(await running).toBe(reason);
  });
});

describe('hostile values from plugins', () => {
  it('a thrown or returned Proxy whose traps throw is a named fault, never an escaping error', async () => {
    const proxy = `new Proxy({}, { get() { throw new Error('trap'); }, getPrototypeOf() { throw new Error('trap'); }, ownKeys() { throw new Error('trap'); } })`;
    const { h, logger } = await loadedHost({
      a: `ctx.registerHook('post_tool_call', () => { throw ${proxy}; });\nctx.registerHook('pre_tool_call', () => ${proxy});\nctx.registerMiddleware('tool_request', () => ${proxy});\nctx.registerMiddleware('tool_execution', (p) => { p.next_call(); return ${proxy}; });`,
    });
    expect(await h.port.invokeHook('post_tool_call', {})).toEqual([]);
    expect(firstBlockOf(await h.port.invokeHook('pre_tool_call', {}))).toMatch(/plugin a raised Error: (trap|returned a value that cannot be read)/);
    expect((await h.port.applyRequestMiddleware('tool_request', { x: 1 }, {})).payload).toEqual({ x: 1 });
    expect(await h.port.runExecutionMiddleware('tool_execution', {}, {}, async () => 'real')).toBe('real');
    const warnings = logger.warnings().join('\n');
    expect(warnings).toMatch(/plugin a: post_tool_call hook callback raised a thrown value that cannot be read/);
    expect(warnings).toMatch(/plugin a: tool_execution middleware (raised Error: trap after next_call|returned a value that cannot be read)/);
  });
});
