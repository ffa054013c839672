/**
 * The domain events a session reports, under their wire names and with their wire (snake_case)
 * payloads. agent-core emits them in exactly this shape; rpc-server only coalesces deltas, redacts
 * and adds the JSON-RPC envelope (`session_id`, `seq`). Backend-only events live in the protocol.
 */
import { array, boolean, enum as oneOf, number, optional, strictObject, string, undefined as absent, type output } from 'zod/mini';
import { SessionInfoSchema } from './sessionInfo.ts';
import { UsageSchema } from './usage.ts';

export const TurnStatusSchema = oneOf(['complete', 'interrupted', 'error']);
export type TurnStatus = output<typeof TurnStatusSchema>;

/**
 * Text to append, redacted. The word still being streamed is held back until a blank follows it
 * or the stream stops (the next non-delta event), so a secret split across frames is redacted whole.
 */
export const MessageDeltaPayloadSchema = strictObject({ text: string() });
export type MessageDeltaPayload = output<typeof MessageDeltaPayloadSchema>;

export const MessageCompletePayloadSchema = strictObject({
  text: string(),
  status: TurnStatusSchema,
  // The backend always sends it; a client that ends a turn itself (its backend died) has none.
  usage: optional(UsageSchema),
  reasoning: optional(string()),
  error: optional(string()),
});
export type MessageCompletePayload = output<typeof MessageCompletePayloadSchema>;

export const ToolGeneratingPayloadSchema = strictObject({ name: string() });
export type ToolGeneratingPayload = output<typeof ToolGeneratingPayloadSchema>;

export const ToolStartPayloadSchema = strictObject({
  tool_id: string(),
  name: string(),
  /** A one-line preview, e.g. the command or the path. */
  context: string(),
});
export type ToolStartPayload = output<typeof ToolStartPayloadSchema>;

export const ToolProgressPayloadSchema = strictObject({ tool_id: string(), name: string(), preview: string() });
export type ToolProgressPayload = output<typeof ToolProgressPayloadSchema>;

export const ToolCompletePayloadSchema = strictObject({
  tool_id: string(),
  name: string(),
  duration_s: number(),
  /** The result's first line, shortened, with how many lines follow. */
  summary: string(),
  result: string(),
  error: optional(string()),
  /** Set when the approval gate (or a hook) refused the call: the tool did not run. */
  blocked: optional(boolean()),
  /** Set when the turn was stopped while the tool ran (Ctrl+C, or hermes stopping): `result` is what it had by then. */
  interrupted: optional(boolean()),
  /** A unified diff of the file change the tool made (write_file, patch). */
  inline_diff: optional(string()),
});
export type ToolCompletePayload = output<typeof ToolCompletePayloadSchema>;

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export const TodoItemSchema = strictObject({ id: string(), content: string(), status: oneOf(TODO_STATUSES) });
export type TodoItem = output<typeof TodoItemSchema>;

export const TodoUpdatedPayloadSchema = strictObject({ todos: array(TodoItemSchema), revision: number() });
export type TodoUpdatedPayload = output<typeof TodoUpdatedPayloadSchema>;

/** Progress the user should see outside the reply: retries, compression. */
export const StatusKindSchema = oneOf(['status', 'compressing', 'compacted', 'warn', 'error']);
export type StatusKind = output<typeof StatusKindSchema>;
export const StatusUpdatePayloadSchema = strictObject({ kind: StatusKindSchema, text: string() });
export type StatusUpdatePayload = output<typeof StatusUpdatePayloadSchema>;

export const SessionTitlePayloadSchema = strictObject({ title: string() });
export type SessionTitlePayload = output<typeof SessionTitlePayloadSchema>;

/** The payload schema of each session event, by wire name; `message.start` carries none. */
export const SessionEventSchemas = {
  'message.start': absent(),
  'message.delta': MessageDeltaPayloadSchema,
  'reasoning.delta': MessageDeltaPayloadSchema,
  'message.complete': MessageCompletePayloadSchema,
  'tool.generating': ToolGeneratingPayloadSchema,
  'tool.start': ToolStartPayloadSchema,
  'tool.progress': ToolProgressPayloadSchema,
  'tool.complete': ToolCompletePayloadSchema,
  'todo.updated': TodoUpdatedPayloadSchema,
  'session.usage': UsageSchema,
  'session.title': SessionTitlePayloadSchema,
  'status.update': StatusUpdatePayloadSchema,
  'session.info': SessionInfoSchema,
} as const;

export type SessionEventType = keyof typeof SessionEventSchemas;
export type SessionEventPayloads = { [K in SessionEventType]: output<(typeof SessionEventSchemas)[K]> };

/** One session event: `{ type, payload }`, the payload present whenever the event has one. */
export type SessionEvent = {
  [K in SessionEventType]: SessionEventPayloads[K] extends undefined ? { type: K; payload?: undefined } : { type: K; payload: SessionEventPayloads[K] };
}[SessionEventType];

export type SessionEventOf<K extends SessionEventType> = Extract<SessionEvent, { type: K }>;
