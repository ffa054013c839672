/**
 * Plugin code is awaited only while the turn wants it: when the turn's signal fires (the user
 * interrupts, the session closes, hermes stops), the wait ends at once, so a callback or tool that
 * never settles and ignores the signal cannot keep a turn running. The callback itself keeps
 * running in the background (JavaScript cannot stop it); its late result or failure is ignored.
 */
export const ABORTED = Symbol('aborted');

/** Resolves like `pending`, or to ABORTED as soon as `signal` fires (at once when it already has). */
export function untilAborted<T>(pending: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return pending;
  // A late rejection of a callback no longer waited for must not become an unhandled rejection.
  pending.catch(() => {});
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The error a caller throws when its wait was cut by the signal: the signal's own reason. */
export function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('interrupted');
}
