/** Retries of failed model calls: which errors, how long to wait, and an interruptible wait. */

export interface RetryPolicy {
  /** Retries after the first attempt (`agent.api_max_retries`). */
  maxRetries: number;
  /** The first back-off; it doubles each attempt (jittered), capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

interface RetryableShape {
  retryable?: boolean;
  retryAfterMs?: number;
  status?: number;
}

/** Retryable: the provider said so, or (for errors that do not say) 408/409/429/5xx. */
export function isRetryable(error: unknown): boolean {
  const e = error as RetryableShape | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.retryable === 'boolean') return e.retryable;
  return typeof e.status === 'number' && (e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500);
}

/** The wait before attempt `attempt + 1`: the provider's Retry-After if given, else jittered exponential. */
export function retryDelayMs(error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const after = (error as RetryableShape | null)?.retryAfterMs;
  if (typeof after === 'number' && Number.isFinite(after) && after >= 0) return Math.min(after, policy.maxDelayMs);
  const exponential = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  // ±25 % so that many clients rate-limited together do not retry in lockstep.
  return Math.round(exponential * (0.75 + random() * 0.5));
}

/** Waits, or rejects with the signal's reason as soon as the user interrupts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
