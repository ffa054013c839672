import type { AgentEvent } from '@hermes/agent-core';
import type { EventPayloads, EventType as EventName } from '../protocol/index.ts';
import { StreamRedaction } from './streamRedaction.ts';

export type EventSender = <K extends EventName>(type: K, payload: EventPayloads[K]) => void;

/** How long deltas are gathered into one frame: about one screen refresh. */
export const DELTA_COALESCE_MS = 16;
/**
 * Output waiting for the client past which deltas are held and merged instead of sent: a client that
 * reads slowly gets the text in fewer, larger frames, and the backend holds one growing string instead
 * of a frame per 16 ms. (The pipe itself holds 64 KiB.)
 */
export const HOLD_DELTAS_BACKLOG_BYTES = 1024 * 1024;

type DeltaKind = 'message.delta' | 'reasoning.delta';

/**
 * Sends one session's agent events. agent-core emits them in their wire shape (the contract), so the
 * bridge only coalesces text and reasoning deltas (never one frame per token under load; while the
 * client is behind, into one frame until it catches up) and holds back a word that may be part of a
 * secret; any other event first flushes what is pending, so the client sees events in the order they
 * happened. The envelope is added by the sender.
 */
export class EventBridge {
  private pending: { kind: DeltaKind; text: string } | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Per kind of delta: holds back a word that may be part of a secret until it is complete. */
  private readonly redaction = { 'message.delta': new StreamRedaction(), 'reasoning.delta': new StreamRedaction() };
  private streaming: DeltaKind | null = null;

  constructor(
    private readonly send: EventSender,
    private readonly coalesceMs = DELTA_COALESCE_MS,
    /** Bytes of output the client has not read yet (the transport's backlog). */
    private readonly outputBacklog: () => number = () => 0,
  ) {}

  handle(event: AgentEvent): void {
    if (event.type === 'message.delta' || event.type === 'reasoning.delta') return this.delta(event.type, event.payload.text);
    this.flush();
    this.streaming = null;
    // The union does not tie each `type` to its payload for the compiler; the contract does.
    (this.send as (type: EventName, payload: unknown) => void)(event.type, event.payload);
  }

  /**
   * Sends whatever deltas are waiting. `end`: the stream stops here (another event follows), so a
   * word held back for redaction goes too.
   */
  flush(end = true): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const pending = this.pending;
    this.pending = null;
    // Only one kind is ever pending or held: a change of kind ends the other first (see `delta`).
    for (const kind of ['reasoning.delta', 'message.delta'] as const) {
      const redaction = this.redaction[kind];
      const text = (pending?.kind === kind ? redaction.push(pending.text) : '') + (end ? redaction.end() : '');
      if (text) this.send(kind, { text });
    }
  }

  private delta(kind: DeltaKind, text: string): void {
    // Text of the other kind (sent or held back) goes first, so the client sees the order it came in.
    if (this.streaming !== kind) this.flush();
    this.streaming = kind;
    if (this.pending) this.pending.text += text;
    else this.pending = { kind, text };
    this.timer ??= setTimeout(() => this.due(), this.coalesceMs);
  }

  /** The window is over: send, unless the client is behind (then gather another window). */
  private due(): void {
    if (this.outputBacklog() > HOLD_DELTAS_BACKLOG_BYTES) {
      this.timer = setTimeout(() => this.due(), this.coalesceMs);
      return;
    }
    this.flush(false);
  }
}
