/**
 * The composer keys that reach past the draft: ↑/↓ on the first/last line walk the prompt history
 * (↑ on an empty draft first takes back the newest queued prompt to edit), Ctrl+R searches it, Esc
 * interrupts a running turn, and Esc Esc on an idle draft clears it into the history.
 */
import { onFirstLine, onLastLine } from '../input/composerKeys.ts';
import type { Key } from '../input/keyParser.ts';
import type { ComposerSideStore, ComposerStore, HistorySearch } from '../state/composerStore.ts';
import type { PromptHistory } from './promptHistory.ts';

/** Two Esc presses within this long clear the draft (as in Hermes). */
export const ESC_ESC_MS = 500;

export interface HistoryKeyDeps {
  composer: ComposerStore;
  side: ComposerSideStore;
  history: PromptHistory;
  /** A turn (or a command holding the session) is running: Esc interrupts it. */
  busy: () => boolean;
  interrupt: () => void;
  now?: () => number;
}

export class HistoryKeys {
  private lastEsc = -Infinity;

  constructor(private readonly deps: HistoryKeyDeps) {}

  private setDraft(draft: string): void {
    this.deps.composer.setState({ draft, cursor: draft.length });
  }

  /** A Ctrl+R search is open: it takes every key, Ctrl+C included (which closes it). */
  get searching(): boolean {
    return this.deps.side.getState().search !== undefined;
  }

  /** Handles `key` when it is one of these; false leaves it to the composer. */
  key(key: Key): boolean {
    const search = this.deps.side.getState().search;
    if (search) return this.searchKey(search, key);
    if (key.type !== 'key') return false;
    const { draft, cursor } = this.deps.composer.getState();
    const plain = !key.ctrl && !key.meta && !key.shift;
    if (key.ctrl && key.name === 'r') {
      this.deps.side.setState({ search: { query: '' } });
      return true;
    }
    if (plain && key.name === 'escape') return this.escape(draft);
    if (plain && key.name === 'up' && onFirstLine(draft, cursor)) {
      const { queued } = this.deps.side.getState();
      if (draft === '' && queued.length > 0) {
        // Taken back to edit; Enter queues it again (at the end).
        this.deps.side.setState({ queued: queued.slice(0, -1) });
        this.setDraft(queued.at(-1)!);
        return true;
      }
      const older = this.deps.history.older(draft);
      if (older === undefined) return false;
      this.setDraft(older);
      return true;
    }
    if (plain && key.name === 'down' && onLastLine(draft, cursor)) {
      const newer = this.deps.history.newer();
      if (newer === undefined) return false;
      this.setDraft(newer);
      return true;
    }
    return false;
  }

  private escape(draft: string): boolean {
    const now = (this.deps.now ?? Date.now)();
    if (this.deps.busy()) {
      this.lastEsc = -Infinity;
      this.deps.interrupt();
      return true;
    }
    const second = now - this.lastEsc <= ESC_ESC_MS;
    this.lastEsc = second ? -Infinity : now;
    if (second && draft.trim() !== '') {
      // Kept in the history, so ↑ brings a draft cleared by mistake back.
      this.deps.history.add(draft);
      this.setDraft('');
    }
    return true;
  }

  /** Ctrl+R mode: typing narrows, Ctrl+R looks further back, Enter or → takes the match, Esc or Ctrl+G gives up. */
  private searchKey(search: HistorySearch, key: Key): boolean {
    const find = (query: string, before?: number): HistorySearch => ({ query, match: query ? this.deps.history.search(query, before) : undefined });
    const update = (next: HistorySearch) => this.deps.side.setState({ search: next });
    if (key.type === 'text' || key.type === 'paste') {
      const query = search.query + key.text.replace(/\s+/g, ' ');
      update(find(query));
      return true;
    }
    if (key.ctrl && key.name === 'r') {
      // No older match: the one shown stays.
      const further = search.query ? find(search.query, search.match?.index) : search;
      if (further.match) update(further);
      return true;
    }
    if (key.name === 'backspace' && !key.ctrl && !key.meta) {
      update(find(search.query.slice(0, -1)));
      return true;
    }
    const accept = key.name === 'enter' || key.name === 'right' || key.name === 'end' || (key.ctrl && key.name === 'e');
    const cancel = key.name === 'escape' || (key.ctrl && (key.name === 'g' || key.name === 'c'));
    if (!accept && !cancel) return true;
    this.deps.side.setState({ search: undefined });
    if (accept && search.match) this.setDraft(search.match.text);
    return true;
  }
}
