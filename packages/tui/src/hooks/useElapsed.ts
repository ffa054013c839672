import { useEffect, useState } from 'react';

/**
 * Whole seconds since `running` last turned true, undefined while it is false. It changes once a
 * second at most, so a component showing it repaints no more often than that.
 */
export function useElapsed(running: boolean): number | undefined {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return;
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1_000)), 1_000);
    return () => {
      clearInterval(timer);
      // The next run starts from zero, never from this one's count.
      setSeconds(0);
    };
  }, [running]);
  return running ? seconds : undefined;
}
