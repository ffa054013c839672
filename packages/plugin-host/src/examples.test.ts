/**
 * Every plugin in examples/plugins/ loads with a real PluginHost over a real ToolRegistry (the
 * built-in tools registered) and does what its README comment says, seen through the host's port,
 * commands, skills and the registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ProcessRegistry, registerBuiltinTools, TodoList, ToolRegistry, type ToolContext } from '@hermes/agent-core';
import { PluginHost } from './pluginHost.ts';
import { recordingLogger, tempDir } from './testing/pluginFixtures.ts';

const EXAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/plugins');
const NPM_EXAMPLES = new Set(['npm-packaged']);

/** Copies examples into a fresh HERMES_HOME (plugins/ or node_modules/<package name>/) and loads them. */
async function loadExamples(...names: string[]) {
  const home = tempDir('hermes-examples-');
  for (const name of names) {
    const source = path.join(EXAMPLES, name);
    const target = NPM_EXAMPLES.has(name)
      ? path.join(home, 'node_modules', (JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as { name: string }).name)
      : path.join(home, 'plugins', name);
    fs.cpSync(source, target, { recursive: true });
  }
  const tools = new ToolRegistry({ env: {} });
  registerBuiltinTools(tools);
  const logger = recordingLogger();
  const host = new PluginHost({ home, cwd: tempDir(), env: {}, tools, builtinCommands: new Set(['help', 'plugins']), logger, npmRoots: [] });
  const infos = await host.load();
  return { home, host, tools, logger, infos };
}

function toolContext(home: string): ToolContext {
  return {
    cwd: tempDir('hermes-examples-cwd-'),
    sessionId: 'examples',
    home,
    signal: new AbortController().signal,
    settings: { terminalTimeoutS: 30, maxBytes: 50_000, maxLines: 2_000 },
    processes: new ProcessRegistry(),
    todos: new TodoList(),
  };
}

describe('examples/plugins', () => {
  it('has a test for every example folder', () => {
    const covered = ['policy-no-rm-rf', 'project-context', 'hello-tools', 'timing-middleware', 'npm-packaged', 'typescript-plugin'];
    expect(fs.readdirSync(EXAMPLES).sort()).toEqual([...covered].sort());
  });

  it('policy-no-rm-rf blocks terminal `rm -rf`, not `ls` or other tools', async () => {
    const { host, infos } = await loadExamples('policy-no-rm-rf');
    expect(infos).toEqual([expect.objectContaining({ name: 'policy-no-rm-rf', enabled: true, hooks: 1, error: null })]);
    const pre = (tool_name: string, command: string) => host.port.invokeHook('pre_tool_call', { tool_name, args: { command }, session_id: 's', task_id: 't', tool_call_id: 'c' });
    const [verdict] = await pre('terminal', 'cd /tmp && rm -rf build');
    expect(verdict).toMatchObject({ action: 'block', message: expect.stringMatching(/policy-no-rm-rf/) });
    expect(await pre('terminal', 'rm -r -f build')).toHaveLength(1);
    expect(await pre('terminal', 'ls -la')).toEqual([]);
    expect(await pre('terminal', 'rm notes.txt')).toEqual([]);
    expect(await pre('read_file', 'rm -rf /')).toEqual([]);
  });

  it('project-context adds its note as {context} to pre_llm_call', async () => {
    const { host, infos } = await loadExamples('project-context');
    expect(infos[0]).toMatchObject({ enabled: true, hooks: 1 });
    const results = await host.port.invokeHook('pre_llm_call', { messages: [], tools: [], session_id: 's' });
    expect(results).toEqual([{ context: expect.stringMatching(/^Project note: /) }]);
  });

  it('hello-tools: the tool runs through the registry, /mycmd answers, the skill is qualified', async () => {
    const { home, host, tools, infos } = await loadExamples('hello-tools');
    expect(infos[0]).toMatchObject({ enabled: true, tools: 1, commands: 1, error: null });
    expect(tools.get('hello')?.toolset).toBe('hello');
    expect(tools.get('terminal')).toBeDefined(); // built-ins untouched
    expect(await tools.run('hello', JSON.stringify({ name: 'Ada' }), toolContext(home))).toEqual({ result: 'Hello, Ada!' });
    expect((await tools.run('hello', '{}', toolContext(home))).error).toMatch(/needs the argument "name"/);

    const mycmd = host.commands.find((c) => c.name === 'mycmd')!;
    expect(mycmd).toMatchObject({ plugin: 'hello-tools', description: 'Echoes its arguments', argsHint: '<words>' });
    expect(await mycmd.handler('one two')).toBe('mycmd says: one two');

    const [skill] = host.skills;
    expect(skill).toMatchObject({ name: 'hello-tools:greeting', plugin: 'hello-tools', description: 'How to greet people warmly' });
    expect(fs.readFileSync(skill!.path, 'utf8')).toMatch(/^---\nname: greeting\ndescription: .+\n---\n/);
  });

  it('timing-middleware wraps a real tool execution, logs its duration and keeps the result', async () => {
    const { home, host, tools, logger, infos } = await loadExamples('timing-middleware');
    expect(infos[0]).toMatchObject({ enabled: true, middleware: 1 });
    const terminal = tools.get('terminal')!;
    const context = toolContext(home);
    const args = { command: 'echo timed' };
    const direct = await tools.execute(terminal, args, context);
    const wrapped = await host.port.runExecutionMiddleware<Record<string, unknown>, string>(
      'tool_execution',
      args,
      { session_id: 's', tool_name: 'terminal', tool_call_id: 'c', original_args: args },
      async (finalArgs) => (await tools.execute(terminal, finalArgs, context)).result,
    );
    expect(wrapped).toMatch(/timed/);
    expect(wrapped).toEqual(direct.result);
    expect(logger.lines).toContainEqual({ level: 'info', message: expect.stringMatching(/^timing-middleware: terminal took \d+\.\d ms$/) });
    expect(logger.warnings()).toEqual([]);
  });

  it('npm-packaged loads from $HERMES_HOME/node_modules with its package.json manifest', async () => {
    const { host, tools, infos } = await loadExamples('npm-packaged');
    expect(infos).toEqual([
      expect.objectContaining({ name: 'npm-packaged', source: 'npm', version: '1.2.0', enabled: true, tools: 1, hooks: 0, middleware: 0, commands: 1, error: null }),
    ]);
    expect(tools.get('npm_example_time')).toBeDefined();
    expect(await host.commands.find((c) => c.name === 'npm-example')!.handler('')).toMatch(/loaded as "npm-packaged"/);
  });

  it('typescript-plugin loads index.ts without a build step', async () => {
    const { home, host, tools, infos } = await loadExamples('typescript-plugin');
    expect(infos).toEqual([expect.objectContaining({ name: 'typescript-plugin', enabled: true, tools: 1, hooks: 1, error: null })]);
    expect((await tools.run('word_count', JSON.stringify({ text: 'one two  three' }), toolContext(home))).result).toBe('3');
    expect(await host.port.invokeHook('post_tool_call', { tool_name: 'word_count', status: 'ok' })).toEqual([]);
  });

  it('all six load side by side without conflicts', async () => {
    const { host, infos } = await loadExamples('policy-no-rm-rf', 'project-context', 'hello-tools', 'timing-middleware', 'npm-packaged', 'typescript-plugin');
    expect(infos.map((i) => [i.name, i.enabled, i.warnings])).toEqual([
      ['hello-tools', true, []],
      ['policy-no-rm-rf', true, []],
      ['project-context', true, []],
      ['timing-middleware', true, []],
      ['typescript-plugin', true, []],
      ['npm-packaged', true, []],
    ]);
    expect(host.commands.map((c) => c.name).sort()).toEqual(['mycmd', 'npm-example']);
  });
});
