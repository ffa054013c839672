import { describe, expect, it } from 'vitest';
import { parseDirective, parseSlash } from './localCommands.ts';

describe('slash command parsing', () => {
  it('keeps /sessions local and sends every other command, as typed, to the backend', () => {
    expect(parseSlash('/sessions')).toEqual({ kind: 'local', name: 'sessions', args: '' });
    expect(parseSlash(' /SESSIONS ')).toEqual({ kind: 'local', name: 'sessions', args: '' });
    expect(parseSlash('/branch  try the other way ')).toEqual({ kind: 'backend', name: 'branch', command: '/branch  try the other way' });
    expect(parseSlash('/Help')).toEqual({ kind: 'backend', name: 'help', command: '/Help' });
    expect(parseSlash('/frobnicate now')).toEqual({ kind: 'backend', name: 'frobnicate', command: '/frobnicate now' });
  });

  it('leaves ordinary prompts alone, paths included', () => {
    expect(parseSlash('hello /sessions')).toBeUndefined();
    expect(parseSlash('/usr/bin/env is missing, why?')).toBeUndefined();
    expect(parseSlash('/')).toBeUndefined();
    expect(parseSlash('!ls')).toBeUndefined();
  });
});

describe('slash.exec directives', () => {
  it('reads each known directive', () => {
    expect(parseDirective({ type: 'prefill', text: 'earlier prompt' })).toEqual({ type: 'prefill', text: 'earlier prompt' });
    expect(parseDirective({ type: 'send', message: 'fix the tests' })).toEqual({ type: 'send', message: 'fix the tests' });
    expect(parseDirective({ type: 'new', session_id: 'sess-2', clear: true })).toEqual({ type: 'new', session_id: 'sess-2', clear: true });
    expect(parseDirective({ type: 'new', session_id: 'sess-2' })).toEqual({ type: 'new', session_id: 'sess-2', clear: false });
    expect(parseDirective({ type: 'resume', session_id: 'sess-3' })).toEqual({ type: 'resume', session_id: 'sess-3' });
    expect(parseDirective({ type: 'resume', target: 'auth work' })).toEqual({ type: 'resume', target: 'auth work' });
    expect(parseDirective({ type: 'picker', picker: 'model' })).toEqual({ type: 'picker', picker: 'model' });
  });

  it('ignores missing, malformed and unknown directives', () => {
    expect(parseDirective(undefined)).toBeUndefined();
    expect(parseDirective({ type: 'send', message: '' })).toBeUndefined();
    expect(parseDirective({ type: 'new' })).toBeUndefined();
    expect(parseDirective({ type: 'resume' })).toBeUndefined();
    expect(parseDirective({ type: 'picker', picker: 'colours' })).toBeUndefined();
    expect(parseDirective({ type: 'teleport', where: 'moon' })).toBeUndefined();
  });
});
