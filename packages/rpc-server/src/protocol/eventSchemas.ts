/**
 * Payload schemas of every event: the session events from agent-core's contract, and those only the
 * backend sends. The backend checks what it sends against them in check mode (contractCheck.ts).
 */
import { ConfigProblemInfoSchema, SessionEventSchemas } from '@hermes/agent-core/contract';
import { array, enum as oneOf, number, optional, strictObject, string } from 'zod/mini';
import type { EventType } from './events.ts';

export const GatewayReadyPayloadSchema = strictObject({
  version: string(),
  protocol: number(),
  pid: number(),
  /** Mistakes in config.yaml or .env (the same list session.info carries); absent when there are none. */
  config_problems: optional(array(ConfigProblemInfoSchema)),
});

/** Reserved: no backend sends it yet. */
export const NotificationShowPayloadSchema = strictObject({
  text: string(),
  level: oneOf(['info', 'warn', 'error', 'success']),
  key: optional(string()),
  ttl_ms: optional(number()),
});

/** Reserved: no backend sends it yet. */
export const NotificationClearPayloadSchema = strictObject({ key: string() });

/** A server request (`srq-…`) the client should stop showing, and why. */
export const RequestCancelPayloadSchema = strictObject({
  id: string(),
  method: string(),
  reason: oneOf(['interrupted', 'timeout', 'session_closed', 'shutdown', 'resolved']),
});

export const ErrorPayloadSchema = strictObject({ message: string() });

export const BackendEventSchemas = {
  'gateway.ready': GatewayReadyPayloadSchema,
  'notification.show': NotificationShowPayloadSchema,
  'notification.clear': NotificationClearPayloadSchema,
  'request.cancel': RequestCancelPayloadSchema,
  error: ErrorPayloadSchema,
} as const;

export type BackendEventSchemas = typeof BackendEventSchemas;

export const EventSchemas = { ...SessionEventSchemas, ...BackendEventSchemas } satisfies Record<EventType, unknown>;
