import type { AgentEvent, SessionUsage } from '@hermes/agent-core';
import { EventType, type EventPayloads, type EventType as EventName, type Usage } from '../protocol/index.ts';
import { StreamRedaction } from './streamRedaction.ts';

export type EventSender = <K extends EventName>(type: K, payload: EventPayloads[K]) => void;

/** How long deltas are gathered into one frame: about one screen refresh. */
export const DELTA_COALESCE_MS = 16;

export function toWireUsage(usage: SessionUsage): Usage {
  return { ...usage };
}

/**
 * Turns one session's agent events into protocol events. Text and reasoning deltas are coalesced
 * (never one frame per token under load); any other event first flushes what is pending, so the
 * client sees events in the order they happened.
 */
export class EventBridge {
  private pending: { kind: 'message.delta' | 'reasoning.delta'; text: string } | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Per kind of delta: holds back a word that may be part of a secret until it is complete. */
  private readonly redaction = { 'message.delta': new StreamRedaction(), 'reasoning.delta': new StreamRedaction() };
  private streaming: 'message.delta' | 'reasoning.delta' | null = null;

  constructor(
    private readonly send: EventSender,
    private readonly coalesceMs = DELTA_COALESCE_MS,
  ) {}

  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'text.delta':
        return this.delta(EventType.MessageDelta, event.text);
      case 'reasoning.delta':
        return this.delta(EventType.ReasoningDelta, event.text);
      default:
        this.flush();
        this.streaming = null;
    }
    switch (event.type) {
      case 'turn.start':
        return this.send(EventType.MessageStart, undefined);
      case 'tool.generating':
        return this.send(EventType.ToolGenerating, { name: event.name });
      case 'tool.start':
        return this.send(EventType.ToolStart, { tool_id: event.toolId, name: event.name, context: event.context });
      case 'tool.progress':
        return this.send(EventType.ToolProgress, { tool_id: event.toolId, name: event.name, preview: event.preview });
      case 'tool.complete':
        return this.send(EventType.ToolComplete, {
          tool_id: event.toolId,
          name: event.name,
          duration_s: event.durationS,
          summary: summarize(event.result),
          result: event.result,
          ...(event.error ? { error: event.error } : {}),
          ...(event.blocked ? { blocked: true } : {}),
          ...(event.interrupted ? { interrupted: true } : {}),
          ...(event.inlineDiff ? { inline_diff: event.inlineDiff } : {}),
        });
      case 'todo.updated':
        return this.send(EventType.TodoUpdated, {
          todos: event.todos as EventPayloads['todo.updated']['todos'],
          revision: event.revision,
        });
      case 'title':
        return this.send(EventType.SessionTitle, { title: event.title });
      case 'session.info':
        return this.send(EventType.SessionInfo, event.payload);
      case 'status':
        return this.send(EventType.StatusUpdate, { kind: event.kind, text: event.text });
      case 'usage':
        return this.send(EventType.SessionUsage, toWireUsage(event.usage));
      case 'turn.complete':
        return this.send(EventType.MessageComplete, {
          text: event.text,
          status: event.status,
          usage: toWireUsage(event.usage),
          ...(event.reasoning ? { reasoning: event.reasoning } : {}),
          ...(event.error ? { error: event.error } : {}),
        });
    }
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
    for (const kind of [EventType.ReasoningDelta, EventType.MessageDelta] as const) {
      const redaction = this.redaction[kind];
      const text = (pending?.kind === kind ? redaction.push(pending.text) : '') + (end ? redaction.end() : '');
      if (text) this.send(kind, { text });
    }
  }

  private delta(kind: 'message.delta' | 'reasoning.delta', text: string): void {
    // Text of the other kind (sent or held back) goes first, so the client sees the order it came in.
    if (this.streaming !== kind) this.flush();
    this.streaming = kind;
    if (this.pending) this.pending.text += text;
    else this.pending = { kind, text };
    this.timer ??= setTimeout(() => this.flush(false), this.coalesceMs);
  }
}

function summarize(result: string): string {
  const lines = result.split('\n').length;
  const first = result.split('\n', 1)[0] ?? '';
  const head = first.length > 60 ? `${first.slice(0, 59)}…` : first;
  return lines > 1 ? `${head} (+${lines - 1} lines)` : head;
}
