/**
 * The prompts sent, walked with ↑/↓ from the composer and searched with Ctrl+R. Loaded once from the
 * history file and appended to as prompts are sent; the draft being written when the walk began comes
 * back when ↓ walks past the newest entry.
 */
import { appendHistory, HISTORY_CAP, loadHistory } from './historyFile.ts';

export class PromptHistory {
  private entries: string[] = [];
  /** Index into `entries` while walking; `entries.length` means "the draft itself". */
  private index = 0;
  /** The draft when the walk began, given back at the end of it. */
  private saved = '';
  private loaded = false;

  /**
   * @param file the history file, or undefined to keep history in memory only (tests of other parts)
   * @param report says a problem with the file on screen
   */
  constructor(
    private readonly file: string | undefined,
    private readonly report: (problem: string) => void,
    private readonly cap = HISTORY_CAP,
  ) {}

  /** Reads the file (once): called when the session is open, so a problem shows then, off the first paint. */
  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.file) return;
    const { entries, problem } = loadHistory(this.file, this.cap);
    // Prompts added before the load (none in practice) stay newest.
    this.entries = [...entries, ...this.entries].slice(-this.cap);
    this.index = this.entries.length;
    if (problem) this.report(problem);
  }

  get size(): number {
    this.load();
    return this.entries.length;
  }

  /** Records a sent prompt (a repeat of the newest entry is kept once) and ends any walk. */
  add(text: string): void {
    this.load();
    const entry = text.trim();
    this.index = this.entries.length;
    if (!entry || this.entries.at(-1) === entry) return;
    this.entries.push(entry);
    if (this.entries.length > this.cap) this.entries.shift();
    this.index = this.entries.length;
    if (!this.file) return;
    try {
      appendHistory(this.file, entry);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      this.report(`the prompt was not saved to ${this.file} (${code}); it is in this session's ↑ history only`);
    }
  }

  /** The entry before the one shown (↑); undefined at the oldest. `draft` is kept when the walk starts. */
  older(draft: string): string | undefined {
    this.load();
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.saved = draft;
    this.index--;
    return this.entries[this.index];
  }

  /** The entry after the one shown (↓), the saved draft past the newest; undefined when not walking. */
  newer(): string | undefined {
    this.load();
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.saved : this.entries[this.index];
  }

  /** Ends a walk: the next ↑ starts from the newest entry again. */
  reset(): void {
    this.index = this.entries.length;
  }

  /**
   * The newest entry containing `query` (case-insensitive) older than `before` (an index; the newest
   * first when omitted), with its index so Ctrl+R again finds the next older match.
   */
  search(query: string, before?: number): { index: number; text: string } | undefined {
    this.load();
    const needle = query.toLowerCase();
    for (let index = Math.min(before ?? this.entries.length, this.entries.length) - 1; index >= 0; index--) {
      if (this.entries[index].toLowerCase().includes(needle)) return { index, text: this.entries[index] };
    }
    return undefined;
  }
}
