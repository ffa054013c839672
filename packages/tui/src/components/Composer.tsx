import { Box, type DOMElement, Text, useCursor } from 'ink';
import { useInsertionEffect, useLayoutEffect, useRef, useState } from 'react';
import stringWidth from 'string-width';
import { useStore } from 'zustand';
import { truncateRow } from '../layout/foldRows.ts';
import { inkRows } from '../layout/inkRows.ts';
import { terminalText } from '../layout/visibleText.ts';
import { createComposerSideStore, type ComposerSide, type ComposerSideStore, type ComposerStore } from '../state/composerStore.ts';

/** Lines of a long draft shown at once, around the cursor. */
export const MAX_COMPOSER_LINES = 8;

const EMPTY_SIDE_STORE = createComposerSideStore();

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function firstGrapheme(text: string): string {
  for (const { segment } of graphemes.segment(text)) return segment;
  return '';
}

interface DraftWindow {
  /** The lines shown, from line `start`: at most MAX_COMPOSER_LINES, around the cursor. */
  shown: string[];
  start: number;
  cursorLine: number;
  /** The cursor's index in its line. */
  column: number;
}

function draftWindow(draft: string, cursor: number): DraftWindow {
  const lines = draft.split('\n');
  let cursorLine = 0;
  let column = cursor;
  while (cursorLine < lines.length - 1 && column > lines[cursorLine].length) {
    column -= lines[cursorLine].length + 1;
    cursorLine++;
  }
  const start = Math.max(0, Math.min(cursorLine - MAX_COMPOSER_LINES + 1, lines.length - MAX_COMPOSER_LINES));
  return { shown: lines.slice(start, start + MAX_COMPOSER_LINES), start, cursorLine, column };
}

/** Rows the composer takes at `width`: its rule, and each line shown as Ink wraps it (the cursor's block after a line's end included). */
export function composerRows(draft: string, cursor: number, width: number): number {
  const { shown, start, cursorLine, column } = draftWindow(draft, cursor);
  if (draft === '') return 2;
  const rows = shown.map((line, index) => {
    const block = start + index === cursorLine && column >= line.length ? ' ' : '';
    return inkRows(terminalText(`❯ ${line}${block}`), width).length;
  });
  return 1 + rows.reduce((sum, count) => sum + count, 0);
}

/**
 * What the composer's height depends on, found cheaply (a selector runs once per key, also for each key
 * of a burst): a draft that surely fits its row (one line, at most two columns a character, the block
 * after it included) always takes the rule and one row, so typing it changes nothing else on screen.
 */
export function composerShape(draft: string, cursor: number, width: number): string {
  return !draft.includes('\n') && 2 * draft.length + 3 <= width ? 'one row' : `${cursor}:${draft}`;
}

/** Cells before an empty draft's placeholder: the prompt sign and its space, the block, a space. */
const PLACEHOLDER_INDENT = 4;
const HINT_SEPARATOR = ' · ';

/**
 * The placeholder in the one row an empty composer has (`width` cells): whole when it fits, else
 * without its trailing ` · ` hints, one at a time, else cut with an ellipsis. A placeholder that
 * wrapped made the empty composer a row taller than the draft that replaces it.
 */
export function fitPlaceholder(placeholder: string, width: number): string {
  const room = width - PLACEHOLDER_INDENT;
  let text = placeholder;
  while (stringWidth(text) > room && text.includes(HINT_SEPARATOR)) text = text.slice(0, text.lastIndexOf(HINT_SEPARATOR));
  if (stringWidth(text) <= room) return text;
  return room < 1 ? '' : truncateRow(text, room);
}

/**
 * The draft's rows as the composer draws them under its rule (plain text, each line wrapped the way Ink
 * wraps it, the block after the caret's line end included; an empty draft shows `placeholder` after
 * the block), and the caret's cell among them, so the terminal cursor lands on it.
 */
export function draftRows(draft: string, cursor: number, width: number, placeholder = ''): { rows: string[]; caret: { row: number; x: number } } {
  // The prompt sign, the block, and the placeholder after a space.
  if (draft === '') return { rows: inkRows(terminalText(`❯   ${placeholder}`), width), caret: { row: 0, x: 2 } };
  const { shown, start, cursorLine, column } = draftWindow(draft, cursor);
  const rows: string[] = [];
  let caret = { row: 0, x: 2 };
  shown.forEach((line, index) => {
    const prefix = start + index === 0 ? '❯ ' : '  ';
    if (start + index !== cursorLine) {
      rows.push(...inkRows(terminalText(`${prefix}${line}`), width));
      return;
    }
    const block = column >= line.length ? ' ' : '';
    // wrap-ansi with trim off keeps every character, so the caret's offset can be walked row by row.
    const before = terminalText(`${prefix}${line.slice(0, column)}`).length;
    const wrapped = inkRows(terminalText(`${prefix}${line}${block}`), width);
    let offset = 0;
    for (let at = 0; at < wrapped.length; at++) {
      if (before < offset + wrapped[at].length || at === wrapped.length - 1) {
        caret = { row: rows.length + at, x: stringWidth(wrapped[at].slice(0, before - offset)) };
        break;
      }
      offset += wrapped[at].length;
    }
    rows.push(...wrapped);
  });
  return { rows, caret };
}

/** Where the caret is drawn, from the composer's top row (its rule): the row and the column. */
export function caretCell(draft: string, cursor: number, width: number): { row: number; x: number } {
  const { caret } = draftRows(draft, cursor, width);
  return { row: 1 + caret.row, x: caret.x };
}

/** The composer's top row in Ink's output (what `useCursor` counts from): <Static> is out of the flow, so its offsets from the root. */
function topRow(element: DOMElement | null): number | undefined {
  let top = 0;
  for (let node: DOMElement | undefined = element ?? undefined; node; node = node.parentNode) {
    if (!node.yogaNode) return undefined;
    top += node.yogaNode.getComputedTop();
  }
  return top;
}

/** Queued prompts listed under the composer; more are counted on one more line. */
const MAX_QUEUED_SHOWN = 3;

/** `text` on one line (line breaks become spaces) cut to `width` columns. */
function oneLine(text: string, width: number): string {
  const flat = terminalText(text.replace(/\s*\n\s*/g, ' ').trimEnd());
  const fit = inkRows(flat, Math.max(1, width))[0] ?? '';
  return fit.length < flat.length ? `${fit.slice(0, Math.max(0, fit.length - 1))}…` : fit;
}

/** The lines under the draft: each queued prompt (the oldest goes first) and an open Ctrl+R search. */
function sideLines(side: ComposerSide, width: number): { key: string; text: string; accent?: boolean }[] {
  const lines: { key: string; text: string; accent?: boolean }[] = [];
  side.queued.slice(0, MAX_QUEUED_SHOWN).forEach((text, index) => lines.push({ key: `q${index}`, text: oneLine(`⏵ queued: ${text.trim()}`, width) }));
  const more = side.queued.length - MAX_QUEUED_SHOWN;
  if (more > 0) lines.push({ key: 'more', text: `  +${more} more queued` });
  if (side.queued.length > 0) lines.push({ key: 'hint', text: oneLine('  sent in order when the turn ends · ↑ on an empty prompt takes the last one back to edit', width) });
  if (side.search) {
    const found = side.search.match ? side.search.match.text : side.search.query ? '(no match)' : '';
    lines.push({ key: 'search', text: oneLine(`(reverse-i-search)\`${side.search.query}': ${found}`, width), accent: true });
  }
  return lines;
}

/** Rows the queue and search lines under the composer take. */
export function composerSideRows(side: ComposerSide, width: number): number {
  return sideLines(side, width).length;
}

/** What the composer drew at a render, for a key echoed before the next frame (echo/localEcho.ts). */
export interface DrawnComposer {
  draft: string;
  cursor: number;
  width: number;
  /** The draft is drawn dimmed (while busy); otherwise without any style. */
  dim: boolean;
  /** The terminal's own cursor was placed at the caret (focused, with a real terminal cursor). */
  caret: boolean;
  /** What an empty draft shows after the caret. */
  placeholder: string;
}

/**
 * The prompt. While a reply streams it looks dimmed but still takes typing, so the next prompt can be
 * written in the meantime.
 */
export function Composer({
  store,
  side: sideStore,
  busy,
  placeholder: fullPlaceholder,
  width,
  focused = true,
  terminalCursor = false,
  onDrawn,
}: {
  store: ComposerStore;
  side?: ComposerSideStore;
  busy: boolean;
  placeholder: string;
  width: number;
  /** False while a card or picker takes the keys: no caret is shown then. */
  focused?: boolean;
  /** Place the terminal's own cursor at the caret (input methods draw there) instead of drawing an inverse cell. */
  terminalCursor?: boolean;
  /** Told what each render drew, before Ink writes its frame. */
  onDrawn?: (drawn: DrawnComposer) => void;
}) {
  const draft = useStore(store, (state) => state.draft);
  const cursor = useStore(store, (state) => state.cursor);
  const placeholder = fitPlaceholder(fullPlaceholder, width);
  const side = useStore(sideStore ?? EMPTY_SIDE_STORE);
  const { shown, start, cursorLine, column } = draftWindow(draft, cursor);
  const promptColor = busy ? 'gray' : 'cyan';
  const box = useRef<DOMElement>(null);
  const [top, setTop] = useState<number | undefined>(undefined);
  const { setCursorPosition } = useCursor();
  // Layout is computed before layout effects run, so this reads the frame just committed; a move redraws once.
  useLayoutEffect(() => {
    const now = topRow(box.current);
    if (now !== top) setTop(now);
  });
  const real = terminalCursor && focused;
  if (real && top !== undefined) {
    const cell = caretCell(draft, cursor, width);
    setCursorPosition({ x: cell.x, y: top + cell.row });
  } else setCursorPosition(undefined);
  // An insertion effect runs before Ink writes the frame of this commit (as useCursor's own does).
  useInsertionEffect(() => onDrawn?.({ draft, cursor, width, dim: busy, caret: real && top !== undefined, placeholder }));
  const drawn = !terminalCursor;

  return (
    <Box ref={box} flexDirection="column" width={width} borderStyle="single" borderColor="gray" borderLeft={false} borderRight={false} borderBottom={false}>
      {draft === '' ? (
        <Text>
          <Text color={promptColor} bold={!busy}>
            {'❯ '}
          </Text>
          <Text inverse={drawn}> </Text>
          <Text dimColor> {placeholder}</Text>
        </Text>
      ) : (
        shown.map((line, index) => {
          const lineNumber = start + index;
          const prefix = lineNumber === 0 ? '❯ ' : '  ';
          if (lineNumber !== cursorLine)
            return (
              <Text key={lineNumber} dimColor={busy}>
                <Text color={promptColor}>{prefix}</Text>
                {terminalText(line)}
              </Text>
            );
          const at = firstGrapheme(line.slice(column)) || ' ';
          return (
            <Text key={lineNumber} dimColor={busy}>
              <Text color={promptColor} bold={!busy}>
                {prefix}
              </Text>
              {terminalText(line.slice(0, column))}
              <Text inverse={drawn}>{terminalText(at)}</Text>
              {terminalText(line.slice(column + (at === ' ' && column >= line.length ? 0 : at.length)))}
            </Text>
          );
        })
      )}
      {sideLines(side, width).map((line) => (
        <Text key={line.key} dimColor={!line.accent} color={line.accent ? 'cyan' : undefined}>
          {line.text}
        </Text>
      ))}
    </Box>
  );
}
