/**
 * Gives up on a response that has gone silent. It watches bytes, not parsed events, so keep-alives the SDKs
 * swallow (Anthropic's `ping`, SSE comments) still count as signs of life, and the time to the response
 * headers counts too. It sees the headers through the `fetch` the SDK client is built with (which is why
 * providers build one, cheap, client per call) and each read of the streamed body through `touch`, which
 * the provider's reader calls (sseBatches' `onRead`). The body is not piped through a stream of the
 * guard's own: that cost a few promises per HTTP chunk, and a fast model sends an event per chunk.
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
  readonly touch = (): void => {
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
  };

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

  /** A `fetch` for the SDK client that restarts the countdown on the response headers (the body's reads: `touch`). */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(input, init);
    this.touch();
    return response;
  };
}
