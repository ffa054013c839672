import { describe, expect, it } from 'vitest';
import { isRetryable, retryDelayMs, sleep } from './retry.ts';

const policy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe('retry policy', () => {
  it('retries what the provider marks retryable, and 408/409/429/5xx otherwise', () => {
    expect(isRetryable({ retryable: true })).toBe(true);
    expect(isRetryable({ retryable: false, status: 500 })).toBe(false);
    expect([408, 409, 429, 500, 503].map((status) => isRetryable({ status }))).toEqual([true, true, true, true, true]);
    expect([400, 401, 404].map((status) => isRetryable({ status }))).toEqual([false, false, false]);
    expect(isRetryable(new Error('boom'))).toBe(false);
  });

  it('honours Retry-After, else backs off exponentially with jitter, capped', () => {
    expect(retryDelayMs({ retryAfterMs: 2500 }, 0, policy)).toBe(2500);
    expect(retryDelayMs({ retryAfterMs: 999_999 }, 0, policy)).toBe(30_000);
    expect(retryDelayMs({}, 0, policy, () => 0.5)).toBe(1000);
    expect(retryDelayMs({}, 2, policy, () => 0.5)).toBe(4000);
    expect(retryDelayMs({}, 2, policy, () => 0)).toBe(3000);
    expect(retryDelayMs({}, 2, policy, () => 1)).toBe(5000);
    expect(retryDelayMs({}, 10, policy, () => 0.5)).toBe(30_000);
  });

  it('stops waiting the moment the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('interrupted'));
    await expect(waiting).rejects.toThrow('interrupted');
  });
});
