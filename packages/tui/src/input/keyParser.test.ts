import { describe, expect, it } from 'vitest';
import { createKeyParser, describeKey, parseKeys } from './keyParser.ts';

const names = (input: string) => parseKeys(input).map(describeKey);

describe('key parser', () => {
  it('splits a batched read into keys', () => {
    expect(names('abc\x7fd\r')).toEqual(['a', 'b', 'c', 'backspace', 'd', 'enter']);
  });

  it('treats both DEL and BS as Backspace, and CR, LF and CR LF as one Enter each', () => {
    expect(names('\x7f\b')).toEqual(['backspace', 'backspace']);
    expect(names('a\rb\nc\r\n')).toEqual(['a', 'enter', 'b', 'enter', 'c', 'enter']);
  });

  it('keeps multi-byte characters and emoji whole', () => {
    expect(names('ü日👍🏽👨‍👩‍👧')).toEqual(['ü', '日', '👍🏽', '👨‍👩‍👧']);
  });

  it('recognises control keys', () => {
    expect(names('\x03\x15\x01\x05\x17\x04\t')).toEqual(['ctrl+c', 'ctrl+u', 'ctrl+a', 'ctrl+e', 'ctrl+w', 'ctrl+d', 'tab']);
  });

  it('recognises arrows, Home/End, Delete and their modifiers in CSI and SS3 forms', () => {
    expect(names('\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1bOF\x1b[1~\x1b[4~\x1b[3~\x1b[5~\x1b[6~')).toEqual([
      'up', 'down', 'right', 'left', 'home', 'end', 'home', 'end', 'delete', 'pageup', 'pagedown',
    ]);
    expect(names('\x1b[1;5D\x1b[1;3C\x1b[1;2A\x1b[Z')).toEqual(['ctrl+left', 'alt+right', 'shift+up', 'shift+tab']);
  });

  it('recognises Alt+key, Alt+Backspace and Alt+Enter', () => {
    expect(names('\x1bb\x1bF\x1b\x7f\x1b\r')).toEqual(['alt+b', 'alt+shift+f', 'alt+backspace', 'alt+enter']);
  });

  it('recognises Shift+Enter in the kitty and modifyOtherKeys encodings', () => {
    expect(names('\x1b[13;2u')).toEqual(['shift+enter']);
    expect(names('\x1b[27;2;13~')).toEqual(['shift+enter']);
    expect(names('\x1b[13u\x1b[27;1;13~')).toEqual(['enter', 'enter']);
  });

  it('maps other keys in those encodings to the same keys as the legacy ones', () => {
    expect(names('\x1b[99;5u\x1b[27;5;99~\x1b[27u\x1b[98;3u\x1b[9;2u\x1b[127;3u')).toEqual([
      'ctrl+c', 'ctrl+c', 'escape', 'alt+b', 'shift+tab', 'alt+backspace',
    ]);
    expect(names('\x1b[97;2u\x1b[27;2;97~\x1b[32;2u')).toEqual(['A', 'A', ' ']);
    // Keys kitty numbers in the Private Use Area (here Left Shift alone) type nothing.
    expect(names('\x1b[57441;2ux')).toEqual(['x']);
  });

  it('waits for the rest of an escape sequence split across reads', () => {
    const parser = createKeyParser();
    expect(parser.push('x\x1b[').map(describeKey)).toEqual(['x']);
    expect(parser.hasPending()).toBe(true);
    expect(parser.push('Dy').map(describeKey)).toEqual(['left', 'y']);
  });

  it('turns a lone Esc into the Escape key once the input goes quiet', () => {
    const parser = createKeyParser();
    expect(parser.push('\x1b')).toEqual([]);
    expect(parser.flush().map(describeKey)).toEqual(['escape']);
  });

  it('delivers a bracketed paste as one paste with its newlines, not as Enter', () => {
    expect(parseKeys('a\x1b[200~line 1\r\nline 2\x1b[201~\r')).toEqual([
      { type: 'text', text: 'a' },
      { type: 'paste', text: 'line 1\r\nline 2' },
      { type: 'key', name: 'enter', ctrl: false, meta: false, shift: false },
    ]);
  });

  it('assembles a paste split across reads, even inside its markers', () => {
    const parser = createKeyParser();
    const chunks = ['\x1b[20', '0~first\n', 'sec', 'ond\x1b[2', '01', '~!'];
    const keys = chunks.flatMap((chunk) => parser.push(chunk));
    expect(keys.map(describeKey)).toEqual(['paste("first\\nsecond")', '!']);
  });

  it('does not let a quiet period end a paste early', () => {
    const parser = createKeyParser();
    parser.push('\x1b[200~part');
    expect(parser.hasPending()).toBe(false);
    expect(parser.flush()).toEqual([]);
    expect(parser.push(' two\x1b[201~').map(describeKey)).toEqual(['paste("part two")']);
  });

  it('swallows unknown sequences instead of typing them', () => {
    expect(names('a\x1b[99za\x1b[201~')).toEqual(['a', 'a']);
  });
});
