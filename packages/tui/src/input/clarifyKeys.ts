/**
 * Pure key dispatch for the clarify card: pick one of the offered answers, or type one. The options
 * are the backend's choices followed by "Type an answer…"; with no choices only the typed answer exists.
 */
import { applyComposerKey } from './composerKeys.ts';
import type { Key } from './keyParser.ts';

export interface ClarifyCardState {
  /** Index into the options; `choices.length` is the typed answer. */
  selected: number;
  text: string;
  cursor: number;
}

export interface ClarifyKeyResult extends ClarifyCardState {
  /** Set when the key answered the card; `''` means the user declined to answer. */
  answer?: string;
}

export const TYPE_AN_ANSWER = 'Type an answer…';

export function initialClarifyState(): ClarifyCardState {
  return { selected: 0, text: '', cursor: 0 };
}

/** True while keys go to the typed answer rather than the list. */
export const isTyping = (choices: readonly string[], state: ClarifyCardState) => state.selected >= choices.length;

export function applyClarifyKey(choices: readonly string[], state: ClarifyCardState, key: Key): ClarifyKeyResult {
  const freeIndex = choices.length;
  const typing = isTyping(choices, state);
  const edit = (k: Key): ClarifyKeyResult => {
    const next = applyComposerKey({ draft: state.text, cursor: state.cursor }, k);
    return { selected: freeIndex, text: next.draft, cursor: next.cursor };
  };

  if (key.type === 'text') {
    if (!typing) {
      const digit = /^[1-9]$/.test(key.text) ? Number(key.text) : 0;
      if (digit >= 1 && digit <= freeIndex + 1) return { ...state, selected: digit - 1 };
    }
    // Typing while a listed answer is selected means the user wants to write their own.
    return edit(key);
  }
  // The answer is one line: pasted line breaks become spaces.
  if (key.type === 'paste') return edit({ type: 'paste', text: key.text.replace(/\s*[\r\n]+\s*/g, ' ') });
  if ((key.ctrl && key.name === 'c') || (key.name === 'escape' && !key.ctrl && !key.meta)) return { ...state, answer: '' };
  if (key.name === 'enter') {
    if (!typing) return { ...state, answer: choices[state.selected] };
    const text = state.text.trim();
    // An empty answer is sent only on purpose, with Esc.
    return text ? { ...state, answer: text } : state;
  }
  if (!key.ctrl && !key.meta && key.name === 'up') return { ...state, selected: Math.max(0, state.selected - 1) };
  if (!key.ctrl && !key.meta && key.name === 'down') return { ...state, selected: Math.min(freeIndex, state.selected + 1) };
  return typing ? edit(key) : state;
}
