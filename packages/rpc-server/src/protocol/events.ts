import type { ConfigProblemInfo, SessionInfo, TurnStatus, Usage } from './types.ts';

/** Every event is a notification with this method name. */
export const EVENT_METHOD = 'event';

/** Event type names (PROTOCOL.md, "Events"). */
export const EventType = {
  GatewayReady: 'gateway.ready',
  SessionInfo: 'session.info',
  SessionUsage: 'session.usage',
  SessionTitle: 'session.title',
  MessageStart: 'message.start',
  MessageDelta: 'message.delta',
  ReasoningDelta: 'reasoning.delta',
  MessageComplete: 'message.complete',
  ToolGenerating: 'tool.generating',
  ToolStart: 'tool.start',
  ToolProgress: 'tool.progress',
  ToolComplete: 'tool.complete',
  TodoUpdated: 'todo.updated',
  StatusUpdate: 'status.update',
  NotificationShow: 'notification.show',
  NotificationClear: 'notification.clear',
  RequestCancel: 'request.cancel',
  Error: 'error',
} as const;

export type EventType = (typeof EventType)[keyof typeof EventType];

export interface GatewayReadyPayload {
  version: string;
  protocol: number;
  pid: number;
  /** Mistakes in config.yaml or .env (the same list session.info carries); absent when there are none. */
  config_problems?: ConfigProblemInfo[];
}

export interface MessageDeltaPayload {
  /**
   * Text to append, redacted. The word still being streamed is held back until a blank follows it
   * or the stream stops (the next non-delta event), so a secret split across frames is redacted whole.
   */
  text: string;
}

export interface MessageCompletePayload {
  text: string;
  status: TurnStatus;
  usage?: Usage;
  reasoning?: string;
  error?: string;
}

export interface ToolGeneratingPayload {
  name: string;
}

export interface ToolStartPayload {
  tool_id: string;
  name: string;
  /** A one-line preview, e.g. the command or the path. */
  context: string;
}

export interface ToolProgressPayload {
  tool_id: string;
  name: string;
  preview: string;
}

export interface ToolCompletePayload {
  tool_id: string;
  name: string;
  duration_s: number;
  summary?: string;
  result?: string;
  error?: string;
  /** Set when the approval gate (or a hook) refused the call: the tool did not run. */
  blocked?: boolean;
  /** Set when the turn was stopped while the tool ran (Ctrl+C, or hermes stopping): `result` is what it had by then. */
  interrupted?: boolean;
  /** A unified diff of the file change the tool made (write_file, patch). */
  inline_diff?: string;
}

export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed' | 'cancelled';
}

export interface TodoUpdatedPayload {
  todos: TodoItem[];
  revision: number;
}

export type StatusKind = 'status' | 'compressing' | 'compacted' | 'warn' | 'error';

export interface StatusUpdatePayload {
  kind: StatusKind;
  text: string;
}

export interface NotificationShowPayload {
  text: string;
  level: 'info' | 'warn' | 'error' | 'success';
  key?: string;
  ttl_ms?: number;
}

export interface NotificationClearPayload {
  key: string;
}

export interface RequestCancelPayload {
  id: string;
  method: string;
  reason: 'interrupted' | 'timeout' | 'session_closed' | 'shutdown' | 'resolved';
}

export interface ErrorPayload {
  message: string;
}

/** Payload type for each event type; `undefined` means the event carries none. */
export interface EventPayloads {
  'gateway.ready': GatewayReadyPayload;
  'session.info': SessionInfo;
  'session.usage': Usage;
  'session.title': { title: string };
  'message.start': undefined;
  'message.delta': MessageDeltaPayload;
  'reasoning.delta': MessageDeltaPayload;
  'message.complete': MessageCompletePayload;
  'tool.generating': ToolGeneratingPayload;
  'tool.start': ToolStartPayload;
  'tool.progress': ToolProgressPayload;
  'tool.complete': ToolCompletePayload;
  'todo.updated': TodoUpdatedPayload;
  'status.update': StatusUpdatePayload;
  'notification.show': NotificationShowPayload;
  'notification.clear': NotificationClearPayload;
  'request.cancel': RequestCancelPayload;
  error: ErrorPayload;
}

/** The params of an `event` notification, discriminated by `type`. */
export type HermesEvent = {
  [K in EventType]: {
    type: K;
    session_id?: string;
    /** Per-session counter so a client can spot gaps. */
    seq?: number;
    payload?: EventPayloads[K];
  };
}[EventType];

export type EventOf<K extends EventType> = Extract<HermesEvent, { type: K }>;
