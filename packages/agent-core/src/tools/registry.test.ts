import { describe, expect, it } from 'vitest';
import { registerBuiltinTools } from './builtins.ts';
import { TOOL_ERROR_PREFIX, ToolRegistry } from './registry.ts';
import { testContext } from './toolTestContext.ts';
import type { ToolDefinition } from './types.ts';

function tool(overrides: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name: 'echo',
    toolset: 'extra',
    description: 'Echoes its arguments as JSON',
    parameters: {
      type: 'object',
      properties: { count: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, loud: { type: 'boolean' } },
      required: ['count'],
    },
    handler: (args) => JSON.stringify(args),
    ...overrides,
  };
}

describe('registration', () => {
  it.each([
    [{ name: 'bad name' }, /Tool "bad name": the name must be 1-64 letters/],
    [{ parameters: { type: 'array' } }, /Tool "echo": `parameters.type` must be "object"/],
    [{ parameters: { type: 'object' } }, /Tool "echo": `parameters.properties` must be an object/],
    [{ parameters: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] } }, /`parameters.required` names "b", not in `properties`/],
    [{ parameters: { type: 'object', properties: { a: 'string' } } }, /the schema of argument "a" must be an object/],
    [{ description: '' }, /`description` must be a non-empty string/],
  ])('refuses a malformed definition %#, naming the tool and the problem', (overrides, message) => {
    expect(() => new ToolRegistry().register(tool(overrides as Partial<ToolDefinition>))).toThrow(message);
  });

  it('refuses a second registration of a name, naming both toolsets, unless overriding is allowed', async () => {
    const r = new ToolRegistry();
    r.register(tool());
    expect(() => r.register(tool({ toolset: 'plugin_x' }))).toThrow(
      'Tool "echo" from toolset "plugin_x" is already registered by toolset "extra"; pass { allowOverride: true } to replace it',
    );
    r.register(tool({ toolset: 'plugin_x', handler: () => 'replaced' }), { allowOverride: true });
    expect((await r.run('echo', '{"count":1}', testContext())).result).toBe('replaced');
    expect(r.get('echo')!.toolset).toBe('plugin_x');
  });
});

describe('toolset selection and availability', () => {
  function builtins() {
    const r = new ToolRegistry({ env: {} });
    registerBuiltinTools(r);
    return r;
  }

  it('offers every toolset by default and only the selected ones otherwise', () => {
    const r = builtins();
    expect(r.schemas().map((s) => s.function.name).sort()).toEqual(
      ['clarify', 'memory', 'patch', 'process', 'read_file', 'search_files', 'session_search', 'skill_view', 'skills_list', 'terminal', 'todo', 'write_file'],
    );
    const picked = r.enabledFor(['file', 'search']);
    expect(picked.tools.map((t) => t.name).sort()).toEqual(['patch', 'read_file', 'search_files', 'write_file']);
    expect(picked.problems).toEqual([]);
    expect(r.enabledFor(['hermes-cli']).tools).toHaveLength(12);
  });

  it('reports an unknown toolset name with the known ones instead of failing', () => {
    const { tools, problems } = builtins().enabledFor(['file', 'web']);
    expect(tools.map((t) => t.toolset)).toEqual(['file', 'file', 'file']);
    expect(problems).toEqual([
      'Unknown toolset "web" in `toolsets`; known toolsets: clarify, file, hermes-cli, memory, search, session_search, skills, terminal, todo',
    ]);
  });

  it('does not offer a tool whose check fails or whose environment variable is missing, and says why', async () => {
    const r = new ToolRegistry({ env: { PRESENT: 'x' } });
    r.register(tool({ name: 'needs_key', requiresEnv: ['MISSING_KEY'] }));
    r.register(tool({ name: 'has_key', requiresEnv: ['PRESENT'] }));
    r.register(tool({ name: 'no_docker', checkFn: () => 'docker is not running' }));
    const { tools, problems } = r.enabledFor();
    expect(tools.map((t) => t.name)).toEqual(['has_key']);
    expect(problems).toEqual([
      'Tool "needs_key" is unavailable: needs MISSING_KEY in the environment or $HERMES_HOME/.env',
      'Tool "no_docker" is unavailable: docker is not running',
    ]);
    expect((await r.run('no_docker', '{"count":1}', testContext())).error).toBe('Unknown tool "no_docker". Available tools: has_key.');
  });

  it('a tool unregistered with a reason (its MCP server is down) is answered with that reason until it is back or forgotten', async () => {
    const r = new ToolRegistry();
    r.register(tool({ name: 'mcp_h_rm' }));
    r.unregister('mcp_h_rm', 'MCP server "h" is down (it crashed); it is being restarted — try again later');
    expect((await r.run('mcp_h_rm', '{"count":1}', testContext())).error).toBe('MCP server "h" is down (it crashed); it is being restarted — try again later');
    r.register(tool({ name: 'mcp_h_rm' }));
    expect((await r.run('mcp_h_rm', '{"count":1}', testContext())).error).toBeUndefined();
    r.unregister('mcp_h_rm');
    expect((await r.run('mcp_h_rm', '{"count":1}', testContext())).error).toBe('Unknown tool "mcp_h_rm". Available tools: none.');
  });

  it('refuses a call to a tool outside the selected toolsets', () => {
    const prepared = builtins().prepare('terminal', '{"command":"ls"}', ['file']);
    expect(prepared.ok).toBe(false);
    if (!prepared.ok) expect(prepared.outcome.error).toMatch(/^Unknown tool "terminal". Available tools: read_file, write_file, patch\.$/);
  });

  it('lists toolsets for tools.list with their enabled state and tools', () => {
    const r = builtins();
    r.register(tool({ toolset: 'plugin_demo' }));
    r.describeToolset('plugin_demo', 'Demo plugin tools');
    const list = r.list(['file', 'plugin_demo']);
    expect(list.find((t) => t.name === 'plugin_demo')).toEqual({ name: 'plugin_demo', description: 'Demo plugin tools', enabled: true, tools: ['echo'] });
    expect(list.find((t) => t.name === 'terminal')).toEqual({
      name: 'terminal',
      description: 'Run shell commands and manage background processes',
      enabled: false,
      tools: ['terminal', 'process'],
    });
    expect(list.map((t) => t.name)).toEqual(['clarify', 'file', 'memory', 'plugin_demo', 'search', 'session_search', 'skills', 'terminal', 'todo']);
  });
});

describe('prepare and execute', () => {
  it('coerces the model\'s arguments to the schema before the handler sees them', () => {
    const r = new ToolRegistry();
    r.register(tool());
    const prepared = r.prepare('echo', '{"count":"3","tags":"a.ts","loud":"false","extra":"kept"}');
    expect(prepared).toMatchObject({ ok: true, args: { count: 3, tags: ['a.ts'], loud: false, extra: 'kept' } });
  });

  it('names a missing required argument', () => {
    const r = new ToolRegistry();
    r.register(tool());
    const prepared = r.prepare('echo', '{"tags":[]}');
    expect(prepared.ok ? null : prepared.outcome).toEqual({
      result: `${TOOL_ERROR_PREFIX} echo needs the argument "count".`,
      error: 'echo needs the argument "count".',
    });
  });

  it('turns a thrown error into a [TOOL_ERROR] result and passes the inline diff through', async () => {
    const r = new ToolRegistry();
    r.register(tool({ name: 'boom', handler: () => { throw new Error('disk full'); } }));
    r.register(tool({ name: 'differ', handler: () => ({ result: 'ok', inlineDiff: '--- a\n+++ b\n' }) }));
    expect(await r.run('boom', '{"count":1}', testContext())).toEqual({ result: `${TOOL_ERROR_PREFIX} disk full`, error: 'disk full' });
    expect(await r.run('differ', '{"count":1}', testContext())).toEqual({ result: 'ok', inlineDiff: '--- a\n+++ b\n' });
  });

  it('rethrows the abort reason when the user interrupted a failing tool', async () => {
    const r = new ToolRegistry();
    const controller = new AbortController();
    r.register(tool({ handler: () => { controller.abort(new Error('stop')); throw new Error('aborted read'); } }));
    await expect(r.run('echo', '{"count":1}', testContext({ signal: controller.signal }))).rejects.toThrow('stop');
  });

  it('caps any tool result at the configured size, keeping head and tail', async () => {
    const r = new ToolRegistry();
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    r.register(tool({ handler: () => lines }));
    const context = testContext();
    context.settings = { ...context.settings, maxLines: 10 };
    const out = (await r.run('echo', '{"count":1}', context)).result;
    expect(out).toMatch(/^line 1\nline 2\n/);
    expect(out).toMatch(/line 100$/);
    expect(out).toContain('91 lines (723 bytes) cut');
    expect(out).not.toContain('line 50\n');
  });
});
