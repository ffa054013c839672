import type { ToolCall } from '../providers/types.ts';
import type { MessageStatus, SessionStore } from '../sessions/sessionStore.ts';
import { isDiskWriteFailure, StoreError } from '../sessions/storeError.ts';

/** How often the text of a reply being streamed is written to the store. */
const FLUSH_EVERY_MS = 250;
/** Back-off of the retries of a write the disk refused (doubling up to the cap). */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

type Final = { content: string; status: MessageStatus; toolCalls?: ToolCall[]; reasoning?: string };

const kb = (chars: string) => `${(Buffer.byteLength(chars) / 1024).toFixed(1)} KB`;

/**
 * The assistant row of one model call, written while it streams: created with status `streaming`
 * when the first text arrives, updated at most every 250 ms (and 250 ms after the last text when the
 * stream pauses), and completed at the end. A crash (kill -9) therefore loses at most the last quarter
 * second of the reply being streamed, and a
 * resumed session shows the partial reply (a `streaming` row is one whose run never finished).
 *
 * When the disk is full or failing (SQLITE_FULL, SQLITE_IOERR), writing never throws: the text is
 * kept in memory, `failed` tells the loop to stop the stream (nothing more is shown than can be
 * kept), the final form is retried now, before the store's next write and on a timer, and
 * `failureMessage` says what is saved and what is not. Other store errors still throw.
 */
export class StreamingMessage {
  private rowId: number | null = null;
  private text = '';
  private lastFlush = 0;
  private dirty = false;
  /** The text the store holds for this row (what survives if hermes stops now). */
  private saved = '';
  private failure: StoreError | null = null;
  /** Whether the disk failed before the final form was written: the stream was then stopped. */
  private failedWhileStreaming = false;
  /** The final form not yet written, and the timer that retries it. */
  private pending: Final | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryDelay = RETRY_FIRST_MS;
  /** Writes text that arrived inside the throttle window when no more comes (a model that pauses). */
  private trailingTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
  ) {}

  /** Set once a write failed because of the disk: the loop ends the call with `failureMessage()`. */
  get failed(): StoreError | null {
    return this.failure;
  }

  /** The whole text streamed so far by this call (a retried attempt starts again from ''). */
  update(text: string): void {
    this.text = text;
    this.dirty = true;
    if (this.failure) return;
    const now = Date.now();
    if (this.rowId === null && text) {
      this.write(() => {
        this.rowId = this.store.appendMessage(this.sessionId, { role: 'assistant', content: text, status: 'streaming' });
      }, text);
      this.lastFlush = now;
    } else if (this.rowId !== null && now - this.lastFlush >= FLUSH_EVERY_MS) {
      this.flush();
    } else if (this.rowId !== null && !this.trailingTimer) {
      // Without it, text shown just before the model pauses would be lost to a kill -9 during the pause.
      this.trailingTimer = setTimeout(() => {
        this.trailingTimer = null;
        if (!this.store.db.open || this.pending || this.failure) return;
        try {
          this.flush();
        } catch {
          // Not the disk (those are recorded, not thrown): the text stays dirty, and the turn's next
          // update or its finish makes the same write and meets (and reports) this error.
        }
      }, FLUSH_EVERY_MS - (now - this.lastFlush));
      this.trailingTimer.unref();
    }
  }

  /** The call's final form: its text, tool calls and reasoning, with how it ended. */
  finish(message: Final): void {
    if (this.trailingTimer) clearTimeout(this.trailingTimer);
    this.trailingTimer = null;
    this.pending = message;
    this.text = message.content;
    this.writePending();
  }

  /** What the user must know after a disk failure: what is saved, what is not, and the fix. */
  failureMessage(): string | null {
    if (!this.failure) return null;
    const what = this.failure.problem === 'disk_full' ? 'The disk is full' : 'The disk reported an error';
    const file = this.failure.file ?? 'state.db';
    const saved =
      this.pending === null
        ? `the reply shown (${kb(this.text)}) is saved in ${file} after all`
        : `${this.saved ? `only the first ${kb(this.saved)}` : 'none'} of the ${kb(this.text)} reply shown is saved in ${file}; hermes keeps the rest in memory and saves it as soon as the disk takes it (it stays in this session's context meanwhile)`;
    // Only the final write failing (it also indexes the reply for search) leaves the reply shown whole.
    const stopped = this.failedWhileStreaming ? 'the reply was stopped' : 'saving the reply failed';
    return `${what}: ${stopped}; ${saved}. ${this.failure.message}`;
  }

  private flush(): void {
    if (this.rowId === null || !this.dirty) return;
    const text = this.text;
    this.write(() => this.store.updateMessage(this.rowId!, { content: text }), text);
    this.lastFlush = Date.now();
  }

  /** Writes the final form if one is waiting; on a disk failure, keeps it and retries later. */
  private writePending(): boolean {
    const message = this.pending;
    if (!message) return true;
    const ok = this.write(() => {
      if (this.rowId === null) this.rowId = this.store.appendMessage(this.sessionId, { role: 'assistant', ...message });
      else this.store.updateMessage(this.rowId, message);
    }, message.content);
    if (ok) {
      this.pending = null;
      this.store.cancelDeferred(this);
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = null;
      return true;
    }
    // Before the store's next write (order is kept) and on a timer (the user may free space meanwhile).
    this.store.deferWrite(this, () => this.writePending());
    if (!this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = null;
        // Once closed, the store has made the last attempt itself.
        if (!this.store.db.open) return;
        this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
        try {
          this.writePending();
        } catch {
          // Not the disk: the deferred write stays, and the store's next append meets (and reports) this error.
        }
      }, this.retryDelay);
      // A pending retry must not keep the process alive; the store's close tries once more.
      this.retryTimer.unref();
    }
    return false;
  }

  /** Runs a store write; a disk failure is recorded (not thrown), anything else is thrown. */
  private write(run: () => void, text: string): boolean {
    try {
      run();
      this.saved = text;
      this.dirty = this.text !== text;
      return true;
    } catch (error) {
      if (!isDiskWriteFailure(error)) throw error;
      if (!this.failure) {
        this.failure = this.store.explainFailure(error);
        this.failedWhileStreaming = this.pending === null;
      }
      return false;
    }
  }
}
