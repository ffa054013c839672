import { Text } from 'ink';
import { useEffect, useState } from 'react';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * The app's only animation clock; mounted only while something is in progress. With `stillForMs` it
 * shows its first frame that long before moving: each frame repaints the screen, which a start that
 * is over by then should not pay for (it competes with the backend's boot for the CPU).
 */
export function Spinner({ color = 'cyan', stillForMs = 0 }: { color?: string; stillForMs?: number }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    let timer: NodeJS.Timeout | undefined;
    const move = () => (timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 120));
    const delay = stillForMs > 0 ? setTimeout(move, stillForMs) : (move(), undefined);
    return () => {
      clearTimeout(delay);
      clearInterval(timer);
    };
  }, [stillForMs]);
  return <Text color={color}>{FRAMES[frame]}</Text>;
}
