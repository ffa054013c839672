import { describe, expect, it } from 'vitest';
import { applyClarifyKey, initialClarifyState, isTyping, type ClarifyCardState } from './clarifyKeys.ts';
import { parseKeys } from './keyParser.ts';

const COLOURS = ['red', 'blue'];

function press(input: string, choices: string[] = COLOURS): { answer?: string; state: ClarifyCardState } {
  let state = initialClarifyState();
  for (const key of parseKeys(input)) {
    const { answer, ...next } = applyClarifyKey(choices, state, key);
    if (answer !== undefined) return { answer, state: next };
    state = next;
  }
  return { state };
}

describe('clarify card keys', () => {
  it('sends the selected choice on Enter, picking with digits or arrows', () => {
    expect(press('\r').answer).toBe('red');
    expect(press('2\r').answer).toBe('blue');
    expect(press('\x1b[B\r').answer).toBe('blue');
  });

  it('switches to the typed answer when the user starts typing, and sends it', () => {
    const typed = press('green-ish');
    expect(isTyping(COLOURS, typed.state)).toBe(true);
    expect(press('green-ish\r').answer).toBe('green-ish');
    expect(press('3teal\r').answer).toBe('teal');
  });

  it('edits the typed answer like the composer, digits included', () => {
    expect(press('3ab\x7fc 42\r').answer).toBe('ac 42');
    expect(press('free text', []).state.text).toBe('free text');
    expect(press('12\r', []).answer).toBe('12');
  });

  it('does not send an empty typed answer on Enter', () => {
    expect(press('\r', []).answer).toBeUndefined();
    expect(press('3   \r').answer).toBeUndefined();
  });

  it('declines with an empty answer on Esc', () => {
    expect(press('\x1b').answer).toBe('');
    expect(press('half typed\x1b', []).answer).toBe('');
  });

  it('keeps a pasted answer on one line', () => {
    const state = applyClarifyKey([], initialClarifyState(), { type: 'paste', text: 'line one\nline two' });
    expect(state.text).toBe('line one line two');
  });
});
