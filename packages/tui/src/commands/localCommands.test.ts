import { describe, expect, it } from 'vitest';
import { routeSlash, withLocalCommands } from './localCommands.ts';

describe('slash command routing', () => {
  it('keeps /sessions local and sends every other command, as typed, to the backend', () => {
    expect(routeSlash('/sessions')).toEqual({ kind: 'local', name: 'sessions', args: '' });
    expect(routeSlash(' /SESSIONS ')).toEqual({ kind: 'local', name: 'sessions', args: '' });
    expect(routeSlash('/sessions  auth work ')).toEqual({ kind: 'local', name: 'sessions', args: 'auth work' });
    expect(routeSlash('/branch  try the other way ')).toEqual({ kind: 'backend', name: 'branch', command: '/branch  try the other way' });
    expect(routeSlash('/details tools expanded')).toEqual({ kind: 'local', name: 'details', args: 'tools expanded' });
    expect(routeSlash('/Help')).toEqual({ kind: 'backend', name: 'help', command: '/Help' });
    expect(routeSlash('/frobnicate now')).toEqual({ kind: 'backend', name: 'frobnicate', command: '/frobnicate now' });
  });

  it('leaves ordinary prompts alone, paths included', () => {
    expect(routeSlash('hello /sessions')).toBeUndefined();
    expect(routeSlash('/usr/bin/env is missing, why?')).toBeUndefined();
    expect(routeSlash('//sessions')).toBeUndefined();
    expect(routeSlash('/')).toBeUndefined();
    expect(routeSlash('/ sessions')).toBeUndefined();
    expect(routeSlash('!ls')).toBeUndefined();
  });

  it('takes as a command whatever the backend parses as one, so slash.exec names it rather than the model answering it', () => {
    // The TUI's own parser used to send these to the model as prompts, while the backend's took them as commands.
    expect(routeSlash('/2fa setup')).toEqual({ kind: 'backend', name: '2fa', command: '/2fa setup' });
    expect(routeSlash('/model.list')).toEqual({ kind: 'backend', name: 'model.list', command: '/model.list' });
  });

  it("adds the TUI's own commands the backend's catalog does not list, for the completion list", () => {
    const sessions = { name: 'sessions', aliases: [], description: 'picker', category: 'session', args_hint: '', source: 'builtin' };
    const names = withLocalCommands([sessions]).map((command) => [command.name, command.source]);
    expect(names).toEqual([['sessions', 'builtin'], ['details', 'tui'], ['transcript', 'tui']]);
  });
});
