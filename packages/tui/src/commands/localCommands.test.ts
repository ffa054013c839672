import { describe, expect, it } from 'vitest';
import { firstLine, parseSlash, unknownCommandNotice } from './localCommands.ts';

describe('local slash commands', () => {
  it('parses the known commands with their arguments', () => {
    expect(parseSlash('/sessions')).toEqual({ kind: 'command', name: 'sessions', args: '' });
    expect(parseSlash('/branch  try the other way ')).toEqual({ kind: 'command', name: 'branch', args: 'try the other way' });
    expect(parseSlash('/TITLE Deploy notes')).toEqual({ kind: 'command', name: 'title', args: 'Deploy notes' });
    expect(parseSlash(' /undo')).toEqual({ kind: 'command', name: 'undo', args: '' });
    expect(parseSlash('/new')).toEqual({ kind: 'command', name: 'new', args: '' });
  });

  it('reports an unknown command instead of sending it to the model', () => {
    expect(parseSlash('/frobnicate now')).toEqual({ kind: 'unknown', name: 'frobnicate' });
    expect(unknownCommandNotice('frobnicate')).toMatch(/^unknown command \/frobnicate — available here: \/sessions /);
  });

  it('leaves ordinary prompts alone, paths included', () => {
    expect(parseSlash('hello /sessions')).toBeUndefined();
    expect(parseSlash('/usr/bin/env is missing, why?')).toBeUndefined();
    expect(parseSlash('/')).toBeUndefined();
    expect(parseSlash('!ls')).toBeUndefined();
  });

  it('shortens a prompt to its first line for notices', () => {
    expect(firstLine('  fix the bug\nin main.ts')).toBe('fix the bug');
    expect(firstLine('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
