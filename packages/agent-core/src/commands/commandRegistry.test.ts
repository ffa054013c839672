import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerBuiltinCommands } from './builtin/index.ts';
import {
  CommandBusyError,
  CommandFailedError,
  CommandRegistrationError,
  UnknownCommandError,
} from './commandErrors.ts';
import { CommandRegistry } from './commandRegistry.ts';
import { liveSessionRig, type LiveSessionRig } from '../testing/liveSessionRig.ts';
import { recordingHost, scopeOf } from './commandTestUtil.ts';
import type { CommandInput } from './commandTypes.ts';

let rig: LiveSessionRig;
beforeAll(async () => {
  rig = await liveSessionRig({ script: { loop: true, turns: [{ text: 'slow', delay_ms: 400 }] } });
});
afterAll(() => rig.close());
const scope = () => scopeOf(rig);

function withBuiltins(): CommandRegistry {
  const registry = new CommandRegistry();
  registerBuiltinCommands(registry);
  return registry;
}

const mycmd: CommandInput = {
  name: 'mycmd',
  aliases: ['mc'],
  description: 'Do my thing',
  argsHint: '<what>',
  source: 'myplugin',
  handler: (args) => ({ output: `did ${args}` }),
};

describe('CommandRegistry registration', () => {
  it('refuses a name or alias that another source already holds, and keeps the first owner', () => {
    const registry = withBuiltins();
    expect(() => registry.register({ ...mycmd, name: 'stop', aliases: [] })).toThrow(
      /\/stop is already taken by \/stop from the built-ins/,
    );
    expect(() => registry.register({ ...mycmd, name: 'other', aliases: ['FORK'] })).toThrow(
      /\/fork is already taken by \/branch/,
    );
    registry.register(mycmd);
    expect(() => registry.register({ ...mycmd, name: 'mc', aliases: [], source: 'otherplugin' })).toThrow(
      CommandRegistrationError,
    );
    expect(registry.resolve('stop')?.source).toBe('builtin');
    expect(registry.resolve('mc')?.source).toBe('myplugin');
    expect(registry.resolve('other')).toBeUndefined();
  });

  it('refuses names a user could not type', () => {
    const registry = new CommandRegistry();
    expect(() => registry.register({ ...mycmd, name: 'two words' })).toThrow(/Invalid command name "two words"/);
    expect(() => registry.register({ ...mycmd, name: '' })).toThrow(CommandRegistrationError);
  });

  it('resolves names and aliases case-insensitively, with or without the slash', () => {
    const registry = withBuiltins();
    expect(registry.resolve('/Compact')?.name).toBe('compress');
    expect(registry.resolve('EXIT')?.name).toBe('quit');
    expect(registry.resolve('nope')).toBeUndefined();
  });
});

describe('CommandRegistry.catalog', () => {
  it('lists every command sorted by name, in wire shape', () => {
    const registry = withBuiltins();
    registry.register(mycmd);
    const catalog = registry.catalog();
    const names = catalog.map((c) => c.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(['help', 'new', 'clear', 'stop', 'retry', 'undo', 'title', 'branch', 'resume']),
    );
    expect(names).toEqual(
      expect.arrayContaining(['sessions', 'history', 'compress', 'model', 'tools', 'toolsets', 'yolo', 'approvals']),
    );
    expect(names).toEqual(
      expect.arrayContaining(['usage', 'status', 'config', 'plugins', 'skills', 'reload-plugins', 'save', 'quit']),
    );
    expect(catalog.find((c) => c.name === 'mycmd')).toEqual({
      name: 'mycmd',
      aliases: ['mc'],
      description: 'Do my thing',
      category: 'myplugin',
      args_hint: '<what>',
      source: 'myplugin',
    });
    expect(catalog.find((c) => c.name === 'new')).toMatchObject({ aliases: ['reset'], source: 'builtin' });
  });
});

describe('CommandRegistry.dispatch', () => {
  it('runs a plugin command with its argument string', async () => {
    const registry = withBuiltins();
    registry.register(mycmd);
    expect(await registry.dispatch('  /MC some thing ', scope())).toEqual({ output: 'did some thing' });
  });

  it('names the closest command when the name is unknown', async () => {
    const registry = withBuiltins();
    const error = await registry.dispatch('/stpo', scope()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownCommandError);
    expect((error as UnknownCommandError).suggestion).toBe('stop');
    expect((error as Error).message).toBe('/stpo is not a command. Did you mean /stop?');
    await expect(registry.dispatch('/stat', scope())).rejects.toThrow('Did you mean /status?');
    await expect(registry.dispatch('/zzzzzz', scope())).rejects.toThrow(
      '/zzzzzz is not a command. Type /help to see the commands.',
    );
    await expect(registry.dispatch('hello', scope())).rejects.toThrow(UnknownCommandError);
  });

  it('refuses commands that make no sense mid-turn, without running them', async () => {
    const registry = withBuiltins();
    const turn = rig.service.agent.submit('busy now');
    const host = recordingHost();
    for (const text of ['/retry', '/undo', '/compress', '/compact', '/branch x', '/fork', '/new', '/reset', '/clear']) {
      const error = await registry.dispatch(text, scopeOf(rig, host)).catch((e: unknown) => e);
      expect(error, text).toBeInstanceOf(CommandBusyError);
    }
    expect(host.calls).toEqual([]);
    await expect(registry.dispatch('/undo', scope())).rejects.toThrow(
      "/undo can't run while a turn is running: wait for it to finish, or /stop it first.",
    );
    await turn;
  });

  it('runs the rest while busy', async () => {
    const registry = withBuiltins();
    const turn = rig.service.agent.submit('busy again');
    for (const text of ['/status', '/usage', '/model', '/title x', '/yolo', '/help', '/tools', '/quit', '/stop']) {
      await expect(registry.dispatch(text, scope()), text).resolves.toBeDefined();
    }
    expect((await turn).status).toBe('interrupted');
  });

  it('wraps a failing handler with the command and its plugin named', async () => {
    const registry = new CommandRegistry();
    registry.register({
      ...mycmd,
      handler: () => {
        throw new Error('disk full');
      },
    });
    const error = await registry.dispatch('/mycmd', scope()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CommandFailedError);
    expect((error as Error).message).toBe('/mycmd (plugin myplugin) failed: disk full');
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe('/help', () => {
  it('groups built-ins by category and lists plugin commands under their plugin', async () => {
    const registry = withBuiltins();
    registry.register(mycmd);
    registry.register({ name: 'deploy', description: 'Ship it', category: 'Ops', source: 'shipit', handler: () => ({}) });
    const { output = '' } = await registry.dispatch('/help', scope());
    const sections = output.split('\n\n').map((s) => s.split('\n')[0]);
    expect(sections).toEqual(['Session', 'Configuration', 'Tools & Skills', 'Info', 'Exit', 'Plugin: myplugin', 'Plugin: shipit']);
    expect(output).toMatch(/Plugin: myplugin\n {2}\/mycmd <what> +Do my thing \(also \/mc\)/);
    expect(output).toMatch(/Plugin: shipit\n {2}\/deploy +Ship it/);
    expect(output).toMatch(/\/branch \[name\] +Branch the current session into a new one \(also \/fork\)/);
  });

  it('shows one command’s usage, or filters', async () => {
    const registry = withBuiltins();
    registry.register(mycmd);
    expect((await registry.dispatch('/help /mc', scope())).output).toBe(
      '/mycmd <what> (plugin myplugin)\n  Do my thing (also /mc)',
    );
    const filtered = (await registry.dispatch('/help session', scope())).output ?? '';
    expect(filtered).toContain('/sessions');
    expect(filtered).not.toContain('/yolo');
    expect((await registry.dispatch('/help qqq', scope())).output).toMatch(/No command matches "qqq"/);
  });
});
