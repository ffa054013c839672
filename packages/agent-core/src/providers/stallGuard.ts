/**
 * Gives up on a response that has gone silent. It watches bytes, not parsed events, so keep-alives the SDKs
 * swallow (Anthropic's `ping`, SSE comments) still count as signs of life, and the time to the response
 * headers counts too. It works through the `fetch` the SDK client is built with, which is why providers
 * build one (cheap) client per call.
 */
import type { ProviderError } from './types.ts';

export class StallGuard {
  /** Hand this to the SDK: it aborts on the user's abort or on a stall. */
  readonly signal: AbortSignal;
  private readonly stall = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stalledWith: ProviderError | null = null;
  private done = false;

  constructor(
    private readonly userSignal: AbortSignal,
    private readonly timeoutMs: number | undefined,
    private readonly onStall: () => ProviderError,
  ) {
    this.signal = AbortSignal.any([userSignal, this.stall.signal]);
    this.touch();
  }

  /** Something arrived: restart the countdown. */
  touch(): void {
    if (this.done || this.timeoutMs === undefined || this.timeoutMs <= 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.done || this.userSignal.aborted) return;
      this.stalledWith = this.onStall();
      this.done = true;
      this.stall.abort(this.stalledWith);
    }, this.timeoutMs);
    // The open request keeps the process alive on its own; the timer must not keep it alive after.
    this.timer.unref?.();
  }

  /** The call is over (or its body fully read): no more stalls can happen. */
  dispose(): void {
    this.done = true;
    clearTimeout(this.timer);
  }

  /**
   * What the call must throw if it was stopped: the user's abort reason (unchanged, so callers can tell
   * an interrupt from a failure) or the stall error. Null when neither happened.
   */
  stopReason(): unknown {
    if (this.userSignal.aborted) return this.userSignal.reason;
    return this.stalledWith;
  }

  /** A `fetch` for the SDK client that restarts the countdown on the response headers and on every body chunk. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(input, init);
    this.touch();
    if (!response.body) return response;
    const guard = this;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          guard.touch();
          controller.enqueue(chunk);
        },
        flush() {
          guard.dispose();
        },
      }),
    );
    const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDKs log and report the URL; a constructed Response has none of its own.
    Object.defineProperty(wrapped, 'url', { value: response.url });
    return wrapped;
  };
}
