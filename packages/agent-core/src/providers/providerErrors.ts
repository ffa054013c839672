/**
 * Turns whatever an SDK threw into a `ProviderError` that says which provider and model failed, what to
 * change, and whether sending the same request again may help. Both SDKs (openai, @anthropic-ai/sdk) are
 * Stainless-generated, so their errors share a shape: `status`, `headers`, `error` (the body).
 */
import { findPreset } from './presets.ts';
import { ProviderError } from './types.ts';

export interface ProviderEndpoint {
  id: string;
  model: string;
  baseUrl: string;
}

/** The SDK's own error classes, passed in because the SDKs are imported lazily. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
}

interface HeaderSource {
  get(name: string): string | null;
}

interface SdkApiError {
  status?: number;
  headers?: HeaderSource;
  /** openai: the inner `{message, type}`; anthropic: the whole `{type:'error', error:{type, message}}`. */
  error?: { message?: unknown; type?: unknown; error?: { message?: unknown; type?: unknown } };
  /** anthropic only: the body's `error.message`. */
  apiMessage?: string | null;
  message: string;
}

/** 408 timeout, 409 conflict (lock contention), 429 rate limit and every 5xx (Anthropic's 529 overload too). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Error types that a server may send inside an already-started stream, when there is no status to go by. */
const RETRYABLE_STREAM_ERROR_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'server_error', 'timeout_error']);

/**
 * The wait a server asked for: `retry-after-ms` (OpenAI, Anthropic) wins over `Retry-After`, which is
 * either seconds or an HTTP date. Unparseable or negative values count as not given.
 */
export function parseRetryAfter(headers: HeaderSource | undefined, now: number = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function where(endpoint: ProviderEndpoint): string {
  return `${endpoint.id} (model ${endpoint.model} at ${endpoint.baseUrl})`;
}

function hintFor(status: number, endpoint: ProviderEndpoint, retryAfterMs: number | undefined): string {
  const keyVar = findPreset(endpoint.id)?.keyVar;
  if (status === 401 || status === 403) return ` Check the API key for this provider${keyVar ? ` (${keyVar})` : ''}.`;
  if (status === 404) return ' Check the model name and the base URL.';
  if (status === 429) {
    const wait = retryAfterMs === undefined ? '' : ` (it asked for ${Math.ceil(retryAfterMs / 1000)} s)`;
    return ` The provider is rate limiting${wait}; wait and try again.`;
  }
  if (status === 413) return ' The request is too large: shorten the conversation or the tool output.';
  if (isRetryableStatus(status)) return ' This is usually temporary; try again.';
  return ' The provider rejected the request; sending it again will not help.';
}

/** The server's own words, without the SDK's `"429 "` prefix or a JSON dump of the body. */
function serverMessage(err: SdkApiError): string {
  const candidates = [err.apiMessage, err.error?.error?.message, err.error?.message];
  const found = candidates.find((m): m is string => typeof m === 'string' && m !== '');
  return (found ?? err.message.replace(/^\d{3}\s+/, '')) || 'no message';
}

const NETWORK_CODES = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

/** A socket-level failure mid-stream reaches us as fetch's bare `TypeError: terminated`, not as an SDK error. */
function looksLikeNetworkFailure(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    if (name === 'TypeError' && (message === 'terminated' || message === 'fetch failed')) return true;
  }
  return false;
}

function rootCause(error: unknown): string {
  let e = error as { message?: string; cause?: unknown; code?: string };
  while (e?.cause && typeof e.cause === 'object') e = e.cause as typeof e;
  return e?.code ? `${e.message ?? String(e)} (${e.code})` : (e?.message ?? String(e));
}

/** Classifies anything a provider call threw (other than the user's own abort, which callers rethrow). */
export function toProviderError(error: unknown, endpoint: ProviderEndpoint, sdk: SdkErrorClasses): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof sdk.APIUserAbortError) {
    return new ProviderError(`The request to ${where(endpoint)} was aborted.`, { kind: 'aborted', retryable: false, cause: error });
  }
  if (error instanceof sdk.APIConnectionError || (!(error instanceof sdk.APIError) && looksLikeNetworkFailure(error))) {
    return new ProviderError(
      `Could not reach ${where(endpoint)}: ${rootCause(error)}. Is the server running and the URL right?`,
      { kind: 'network', retryable: true, cause: error },
    );
  }
  if (error instanceof sdk.APIError) {
    const err = error as unknown as SdkApiError;
    const message = serverMessage(err);
    if (typeof err.status === 'number') {
      const retryAfterMs = parseRetryAfter(err.headers);
      return new ProviderError(
        `${where(endpoint)} answered HTTP ${err.status}: ${message.replace(/[.\s]+$/, '')}.${hintFor(err.status, endpoint, retryAfterMs)}`,
        { kind: 'http', retryable: isRetryableStatus(err.status), status: err.status, retryAfterMs, cause: error },
      );
    }
    // An error event inside a stream that had already started (e.g. Anthropic's `overloaded_error`).
    const type = err.error?.error?.type ?? err.error?.type;
    const retryable = typeof type === 'string' && RETRYABLE_STREAM_ERROR_TYPES.has(type);
    return new ProviderError(
      `${where(endpoint)} sent an error mid-response${typeof type === 'string' ? ` (${type})` : ''}: ${message}.` +
        (retryable ? ' This is usually temporary; try again.' : ''),
      { kind: 'http', retryable, cause: error },
    );
  }
  return new ProviderError(`The call to ${where(endpoint)} failed: ${rootCause(error)}.`, {
    kind: 'network',
    retryable: false,
    cause: error,
  });
}

export function stallError(endpoint: ProviderEndpoint, timeoutMs: number): ProviderError {
  return new ProviderError(
    `${where(endpoint)} sent nothing for ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}, so the request was abandoned. ` +
      'The server may be overloaded; try again, or raise `agent.stream_stall_timeout` if this model is slow to start answering.',
    { kind: 'stall', retryable: true },
  );
}
