/**
 * The event envelope and the events only the backend sends. The session events (their names and
 * payloads) are agent-core's contract (contract/events.ts), re-exported by the protocol index.
 */
import type { SessionEventPayloads } from '@hermes/agent-core/contract';
import type { output } from 'zod/mini';
import type { BackendEventSchemas } from './eventSchemas.ts';

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

export type GatewayReadyPayload = output<BackendEventSchemas['gateway.ready']>;
export type NotificationShowPayload = output<BackendEventSchemas['notification.show']>;
export type NotificationClearPayload = output<BackendEventSchemas['notification.clear']>;
export type RequestCancelPayload = output<BackendEventSchemas['request.cancel']>;
export type ErrorPayload = output<BackendEventSchemas['error']>;

/** Payloads of the events only the backend sends (the session events' are the contract's). */
export type BackendEventPayloads = { [K in keyof BackendEventSchemas]: output<BackendEventSchemas[K]> };

/** Payload type for each event type; `undefined` means the event carries none. */
export type EventPayloads = SessionEventPayloads & BackendEventPayloads;

/**
 * The params of an `event` notification, discriminated by `type`: the payload (present whenever the
 * event has one), and the envelope the backend adds to every event but `gateway.ready`.
 */
export type HermesEvent = {
  [K in EventType]: {
    type: K;
    /** Always sent with a session's event; optional here because a client may build events of its own. */
    session_id?: string;
    /** Per-session counter so a client can spot gaps; always sent with a session's event. */
    seq?: number;
  } & (EventPayloads[K] extends undefined ? { payload?: undefined } : { payload: EventPayloads[K] });
}[EventType];

export type EventOf<K extends EventType> = Extract<HermesEvent, { type: K }>;
