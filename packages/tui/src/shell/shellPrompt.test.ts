import { describe, expect, it } from 'vitest';
import { parseShellPrompt } from './shellPrompt.ts';

describe('!cmd prompts', () => {
  it('takes the command after the !', () => {
    expect(parseShellPrompt('!ls -la')).toEqual({ kind: 'command', command: 'ls -la' });
    expect(parseShellPrompt('! git status ')).toEqual({ kind: 'command', command: 'git status' });
    expect(parseShellPrompt('!echo "a!b"')).toEqual({ kind: 'command', command: 'echo "a!b"' });
  });

  it('asks for a command when ! comes alone', () => {
    expect(parseShellPrompt('!')).toEqual({ kind: 'usage' });
    expect(parseShellPrompt('!   ')).toEqual({ kind: 'usage' });
  });

  it('leaves ordinary prompts, and a ! later in the text, to the model', () => {
    expect(parseShellPrompt('what does ls -la do?')).toBeUndefined();
    expect(parseShellPrompt('hello!')).toBeUndefined();
  });
});
