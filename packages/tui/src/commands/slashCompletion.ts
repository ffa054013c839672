/**
 * The slash-command completion list under the composer, as pure functions: when to ask the backend,
 * which answer still applies, how ↑/↓ move, and what Tab writes into the composer.
 */
import type { CompletionItem } from '@hermes/rpc-server/protocol';
import type { ComposerState } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';

/** Rows of the list shown at once; the selection scrolls within them. */
export const MAX_COMPLETION_ROWS = 8;

export interface CompletionState {
  /** The composer text these items answer. */
  text: string;
  items: CompletionItem[];
  /** Where the chosen item's `text` replaces the draft from. */
  replaceFrom: number;
  selected: number;
}

/**
 * The text to complete, or undefined when the list should be closed: a one-line draft that starts with
 * `/` and the cursor at its end (completing mid-line would replace what follows the cursor).
 */
export function completionQuery({ draft, cursor }: ComposerState): string | undefined {
  if (!draft.startsWith('/') || draft.includes('\n') || cursor !== draft.length) return undefined;
  return draft;
}

/** The list for an answer, or undefined when the answer is stale (the draft moved on) or empty. */
export function acceptAnswer(
  draft: ComposerState,
  answer: { text: string; items: CompletionItem[]; replace_from: number },
  previous: CompletionState | undefined,
): CompletionState | undefined {
  if (completionQuery(draft) !== answer.text || answer.items.length === 0) return undefined;
  // Keep the selection on the same item when a refined answer still has it.
  const kept = previous ? answer.items.findIndex((item) => item.text === previous.items[previous.selected]?.text) : -1;
  return { text: answer.text, items: answer.items, replaceFrom: answer.replace_from, selected: Math.max(0, kept) };
}

/**
 * The composer after applying `item`: the draft from `replaceFrom` becomes the item's text, cursor at
 * the end. A completed command name gets a space, ready for its arguments.
 */
export function applyCompletion(draft: string, replaceFrom: number, item: CompletionItem): ComposerState {
  const from = Math.max(0, Math.min(replaceFrom, draft.length));
  const commandName = from === 0 && item.text.startsWith('/') && !item.text.includes(' ');
  const text = `${draft.slice(0, from)}${item.text}${commandName ? ' ' : ''}`;
  return { draft: text, cursor: text.length };
}

export type CompletionKeyResult =
  | { kind: 'select'; state: CompletionState }
  | { kind: 'apply'; composer: ComposerState }
  | { kind: 'close' }
  /** Not a list key: the composer takes it (Enter included: it runs what is typed). */
  | { kind: 'pass' };

/** What a key does while the list is open over `draft`. */
export function applyCompletionKey(state: CompletionState, draft: string, key: Key): CompletionKeyResult {
  if (key.type !== 'key' || key.ctrl || key.meta) return { kind: 'pass' };
  const count = state.items.length;
  switch (key.name) {
    case 'up':
      return { kind: 'select', state: { ...state, selected: (state.selected - 1 + count) % count } };
    case 'down':
      return { kind: 'select', state: { ...state, selected: (state.selected + 1) % count } };
    case 'tab': {
      if (key.shift) return { kind: 'pass' };
      const item = state.items[state.selected];
      return item ? { kind: 'apply', composer: applyCompletion(draft, state.replaceFrom, item) } : { kind: 'close' };
    }
    case 'escape':
      return { kind: 'close' };
  }
  return { kind: 'pass' };
}

/** The rows on screen: a window of at most `rows` items that keeps the selection visible. */
export function visibleWindow(state: CompletionState, rows = MAX_COMPLETION_ROWS): { start: number; items: CompletionItem[] } {
  const size = Math.max(1, rows);
  const start = Math.max(0, Math.min(state.selected - size + 1, state.items.length - size));
  return { start, items: state.items.slice(start, start + size) };
}
