import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderLive, renderStyled, stylesAt } from '../testing/renderFrame.ts';
import { Spinner } from './Spinner.tsx';

describe('Spinner', () => {
  beforeEach(() => {
    // The spinner's clock is faked; React's own scheduling (setImmediate) stays real, so a frame is drawn once the tick's update is flushed.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('steps through its frames every 120 ms and wraps around', async () => {
    const live = renderLive(<Spinner />, { columns: 10 });
    try {
      const seen = [live.text()];
      for (let step = 0; step < 10; step++) {
        await vi.advanceTimersByTimeAsync(120);
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(live.text());
      }
      expect(seen).toEqual(['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏', '⠋']);
    } finally {
      live.unmount();
    }
    // Unmounted, its clock is gone: nothing is left to tick.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with stillForMs, stands on its first frame that long, then steps', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const live = renderLive(<Spinner stillForMs={1000} />, { columns: 10 });
    const after = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await new Promise((resolve) => setImmediate(resolve));
      return live.text();
    };
    try {
      expect([await after(500), await after(480)]).toEqual(['⠋', '⠋']);
      expect([await after(20 + 120), await after(120)]).toEqual(['⠙', '⠹']);
    } finally {
      live.unmount();
    }
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is cyan unless told otherwise', () => {
    expect(stylesAt(renderStyled(<Spinner />, 10), '⠋')).toEqual(['cyan']);
    expect(stylesAt(renderStyled(<Spinner color="yellow" />, 10), '⠋')).toEqual(['yellow']);
  });
});
