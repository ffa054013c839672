/**
 * What a parsed line is, by JSON-RPC 2.0's rules: a request, a notification, a response, or an
 * invalid frame (with the id to answer it under, null when none could be read). Checked here so that
 * vscode-jsonrpc only ever sees well-formed messages: it trusts their shape and throws otherwise.
 */
import type { Message, NotificationMessage, RequestMessage, ResponseMessage } from 'vscode-jsonrpc/node';
import { MAX_ID_LENGTH, MAX_METHOD_LENGTH } from '../protocol/index.ts';

export type RpcId = string | number | null;

export type Frame =
  | { kind: 'request'; id: RpcId; message: RequestMessage }
  | { kind: 'notification'; message: NotificationMessage }
  | { kind: 'response'; message: ResponseMessage }
  | { kind: 'invalid'; id: RpcId; reason: string };

const CANCEL_METHOD = '$/cancelRequest';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large for JSON-RPC';
  return typeof value === 'boolean' ? 'a boolean' : typeof value === 'string' ? 'a string' : typeof value === 'number' ? 'a number' : typeof value;
}

/** Why `id` is not a usable JSON-RPC id, or null when it is one. */
function idProblem(id: unknown): string | null {
  if (id === null) return null;
  if (typeof id === 'number') return Number.isFinite(id) ? null : '"id" must be a finite number';
  if (typeof id === 'string') return id.length > MAX_ID_LENGTH ? `"id" is longer than ${MAX_ID_LENGTH} characters` : null;
  return `"id" must be a string, a number or null, not ${describe(id)}`;
}

function invalid(id: RpcId, reason: string): Frame {
  return { kind: 'invalid', id, reason: `Invalid request: ${reason}` };
}

/** Classifies one parsed JSON value (an element of a batch, or a whole line). */
export function classifyFrame(value: unknown): Frame {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return invalid(null, `a frame must be a JSON-RPC 2.0 object, not ${describe(value)}`);
  }
  const v = value as Record<string, unknown>;
  const hasId = Object.hasOwn(v, 'id');
  const badId = hasId ? idProblem(v.id) : null;
  // The spec's rule: an id that cannot be read is answered as null.
  if (badId) return invalid(null, badId);
  const id = hasId ? (v.id as RpcId) : null;
  if (v.jsonrpc !== '2.0') return invalid(id, `"jsonrpc" must be the string "2.0", not ${JSON.stringify(v.jsonrpc) ?? 'missing'}`);
  if (Object.hasOwn(v, 'method')) {
    if (typeof v.method !== 'string') return invalid(id, `"method" must be a string, not ${describe(v.method)}`);
    if (v.method.length > MAX_METHOD_LENGTH) return invalid(id, `"method" is longer than ${MAX_METHOD_LENGTH} characters`);
    if (Object.hasOwn(v, 'result') || Object.hasOwn(v, 'error')) {
      return invalid(id, 'a frame with "method" cannot carry "result" or "error"');
    }
    if (Object.hasOwn(v, 'params') && (v.params === null || typeof v.params !== 'object')) {
      return invalid(id, `"params" must be an object or a list when present, not ${describe(v.params)}`);
    }
    if (!hasId) return { kind: 'notification', message: v as unknown as NotificationMessage };
    return { kind: 'request', id, message: v as unknown as RequestMessage };
  }
  const hasResult = Object.hasOwn(v, 'result');
  const hasError = Object.hasOwn(v, 'error');
  if (!hasResult && !hasError) {
    return invalid(id, 'a frame needs "method" (a request or notification) or "result"/"error" (a response)');
  }
  if (!hasId) return invalid(null, 'a response needs an "id"');
  if (hasResult && hasError) return invalid(id, 'a response carries either "result" or "error", not both');
  if (hasError) {
    const e = v.error as { code?: unknown; message?: unknown } | null;
    if (e === null || typeof e !== 'object' || !Number.isInteger(e.code) || typeof e.message !== 'string') {
      return invalid(id, '"error" must be an object with an integer "code" and a string "message"');
    }
  }
  return { kind: 'response', message: v as unknown as ResponseMessage };
}

/** The id a `$/cancelRequest` names, or null when the notification is malformed or is not one. */
export function cancelTarget(message: Message): { id: string | number } | { problem: string } | null {
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method !== CANCEL_METHOD || Object.hasOwn(m, 'id')) return null;
  const params = m.params as { id?: unknown } | undefined;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    return { problem: `${CANCEL_METHOD} needs params {"id": <the request's id>}` };
  }
  const id = params.id;
  if ((typeof id === 'number' && Number.isFinite(id)) || (typeof id === 'string' && id.length <= MAX_ID_LENGTH)) return { id };
  return { problem: `${CANCEL_METHOD} needs params.id, the id (a string or number) of the request to cancel` };
}
