import type {
  ConfigProblemInfo,
  MessageCompletePayload,
  MessageDeltaPayload,
  SessionInfo,
  StatusUpdatePayload,
  TodoUpdatedPayload,
  ToolCompletePayload,
  ToolGeneratingPayload,
  ToolProgressPayload,
  ToolStartPayload,
  Usage,
} from '@hermes/agent-core/contract';

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
