/**
 * The completion list under the composer, as pure functions: what the text at the cursor asks to complete,
 * how ↑/↓ move, and what Tab and Enter do with the highlighted item.
 */
import type { CompletionItem } from '@hermes/rpc-server/protocol';
import type { ComposerState } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';

/** Rows of the list shown at once; the selection scrolls within them. */
export const MAX_COMPLETION_ROWS = 8;

/** What the text before the cursor asks to complete. `text` is the whole draft it was read from. */
export type CompletionQuery =
  /** The command word: `/he`. */
  | { kind: 'command'; text: string }
  /** An argument of a command that has known values: `/resume my ti`, `/details tools col`. */
  | { kind: 'argument'; text: string; command: string; word: string; replaceFrom: number; position: number; previousWord: string }
  /** A path after `@` (`@src/ap`), answered by `complete.path`. */
  | { kind: 'path'; text: string; word: string; replaceFrom: number };

export interface CompletionState {
  kind: CompletionQuery['kind'];
  /** The composer text these items answer. */
  text: string;
  items: CompletionItem[];
  /** Where the chosen item's `text` replaces the draft from. */
  replaceFrom: number;
  selected: number;
  /** The user moved the selection with ↑/↓ (an argument list then runs the highlighted item on Enter). */
  moved: boolean;
}

/** Commands whose arguments the list completes; `/resume` takes the rest of the line (titles have spaces). */
const ARGUMENT_COMMANDS = new Set(['resume', 'model', 'help', 'details']);

/**
 * The query for a one-line draft with the cursor at its end, or undefined when the list should be closed
 * (completing mid-line would replace what follows the cursor).
 */
export function completionQuery({ draft, cursor }: ComposerState): CompletionQuery | undefined {
  if (draft.includes('\n') || cursor !== draft.length) return undefined;
  if (/^\/\S*$/.test(draft)) return { kind: 'command', text: draft };
  const slash = /^\/(\S+) (.*)$/.exec(draft);
  if (slash && ARGUMENT_COMMANDS.has(slash[1])) {
    const command = slash[1];
    const rest = slash[2];
    const restFrom = draft.length - rest.length;
    if (command === 'resume') return { kind: 'argument', text: draft, command, word: rest, replaceFrom: restFrom, position: 0, previousWord: '' };
    const words = rest.split(' ');
    const word = words[words.length - 1];
    const position = words.length - 1;
    if (command !== 'details' && position > 0) return undefined;
    if (position > 1) return undefined;
    return { kind: 'argument', text: draft, command, word, replaceFrom: draft.length - word.length, position, previousWord: words[position - 1] ?? '' };
  }
  const at = /(^|\s)(@\S*)$/.exec(draft);
  if (at) return { kind: 'path', text: draft, word: at[2], replaceFrom: draft.length - at[2].length };
  return undefined;
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
  /** Enter on a highlighted item: run this line instead of what is typed. */
  | { kind: 'submit'; text: string }
  | { kind: 'close' }
  /** Not a list key: the composer takes it. */
  | { kind: 'pass' };

/** What a key does while the list is open over `draft`. */
export function applyCompletionKey(state: CompletionState, draft: string, key: Key): CompletionKeyResult {
  if (key.type !== 'key' || key.ctrl || key.meta) return { kind: 'pass' };
  // A list answering other text (a path answer in flight) must not act: the composer takes the key.
  if (state.text !== draft) return { kind: 'pass' };
  const count = state.items.length;
  const item = state.items[state.selected];
  switch (key.name) {
    case 'up':
      return { kind: 'select', state: { ...state, selected: (state.selected - 1 + count) % count, moved: true } };
    case 'down':
      return { kind: 'select', state: { ...state, selected: (state.selected + 1) % count, moved: true } };
    case 'tab':
      if (key.shift) return { kind: 'pass' };
      return item ? { kind: 'apply', composer: applyCompletion(draft, state.replaceFrom, item) } : { kind: 'close' };
    case 'enter':
      if (key.shift || !item) return { kind: 'pass' };
      return enterOnItem(state, draft, item);
    case 'escape':
      return { kind: 'close' };
  }
  return { kind: 'pass' };
}

/**
 * Enter with the list open. On a command word it runs the highlighted command (`/sta` with `› /status`
 * runs `/status`). On an argument it runs the value chosen with ↑/↓, else what is typed. A path is
 * completed in place: the message is not done yet.
 */
function enterOnItem(state: CompletionState, draft: string, item: CompletionItem): CompletionKeyResult {
  const applied = applyCompletion(draft, state.replaceFrom, item).draft.trimEnd();
  if (state.kind === 'command') return { kind: 'submit', text: applied };
  if (state.kind === 'path') {
    const composer = applyCompletion(draft, state.replaceFrom, item);
    // A path already complete as typed lets Enter send the message.
    return composer.draft === draft ? { kind: 'pass' } : { kind: 'apply', composer };
  }
  // An argument runs as typed (an id, a model the list does not know) unless one was chosen with ↑/↓.
  return state.moved ? { kind: 'submit', text: applied } : { kind: 'pass' };
}

/** The rows on screen: a window of at most `rows` items that keeps the selection visible. */
export function visibleWindow(state: CompletionState, rows = MAX_COMPLETION_ROWS): { start: number; items: CompletionItem[] } {
  const size = Math.max(1, rows);
  const start = Math.max(0, Math.min(state.selected - size + 1, state.items.length - size));
  return { start, items: state.items.slice(start, start + size) };
}
