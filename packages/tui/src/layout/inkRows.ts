/**
 * The rows Ink draws a `<Text>` in: it wraps with wrap-ansi (hard, untrimmed) at the box's width, and
 * measures with string-width. Row budgets are counted with wrapStyled, which makes wrap-ansi's rows byte
 * for byte (faster), so they match the screen.
 */
import { wrapStyled } from './wrapStyled.ts';

/** `line` as the rows Ink draws it in at `width` columns. */
export function inkRows(line: string, width: number): string[] {
  return wrapStyled(line, Math.max(1, width), { hard: true, trim: false }).split('\n');
}
