import type { ToolCall } from '../providers/types.ts';
import type { MessageStatus, SessionStore } from '../sessions/sessionStore.ts';

/** How often the text of a reply being streamed is written to the store. */
const FLUSH_EVERY_MS = 250;

/**
 * The assistant row of one model call, written while it streams: created with status `streaming`
 * when the first text arrives, updated at most every 250 ms, and completed at the end. A crash
 * (kill -9) therefore loses at most the last quarter second of the reply being streamed, and a
 * resumed session shows the partial reply (a `streaming` row is one whose run never finished).
 */
export class StreamingMessage {
  private rowId: number | null = null;
  private text = '';
  private lastFlush = 0;
  private dirty = false;

  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
  ) {}

  /** The whole text streamed so far by this call (a retried attempt starts again from ''). */
  update(text: string): void {
    this.text = text;
    this.dirty = true;
    const now = Date.now();
    if (this.rowId === null && text) {
      this.rowId = this.store.appendMessage(this.sessionId, { role: 'assistant', content: text, status: 'streaming' });
      this.lastFlush = now;
      this.dirty = false;
    } else if (this.rowId !== null && now - this.lastFlush >= FLUSH_EVERY_MS) {
      this.flush();
    }
  }

  /** The call's final form: its text, tool calls and reasoning, with how it ended. */
  finish(message: { content: string; status: MessageStatus; toolCalls?: ToolCall[]; reasoning?: string }): void {
    if (this.rowId === null) {
      this.store.appendMessage(this.sessionId, { role: 'assistant', ...message });
      return;
    }
    this.store.updateMessage(this.rowId, message);
    this.dirty = false;
  }

  private flush(): void {
    if (this.rowId === null || !this.dirty) return;
    this.store.updateMessage(this.rowId, { content: this.text });
    this.lastFlush = Date.now();
    this.dirty = false;
  }
}
