/**
 * Pure key dispatch for scrolling a window of rows: ↑/↓ and j/k by a row, PgUp/PgDn, space and b by
 * a page (less's keys), Home/End and g/G to the ends. The window never scrolls past the last row.
 */
import { clampTop } from '../layout/commandPager.ts';
import type { Key } from './keyParser.ts';

export interface PagerSize {
  /** Rows the window shows. */
  page: number;
  /** Rows there are. */
  total: number;
}

/** The new first row after `key`, or undefined when `key` does not scroll. */
export function scrollKey(top: number, key: Key, size: PagerSize): number | undefined {
  const page = Math.max(1, size.page);
  const to = (next: number) => clampTop(next, size.total, page);
  if (key.type === 'text') {
    switch (key.text) {
      case 'j':
        return to(top + 1);
      case 'k':
        return to(top - 1);
      case ' ':
        return to(top + page);
      case 'b':
        return to(top - page);
      case 'g':
        return to(0);
      case 'G':
        return to(size.total);
    }
    return undefined;
  }
  if (key.type === 'paste' || key.ctrl || key.meta) return undefined;
  switch (key.name) {
    case 'up':
      return to(top - 1);
    case 'down':
      return to(top + 1);
    case 'pageup':
      return to(top - page);
    case 'pagedown':
      return to(top + page);
    case 'home':
      return to(0);
    case 'end':
      return to(size.total);
  }
  return undefined;
}
