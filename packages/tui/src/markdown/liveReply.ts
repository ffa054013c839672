/**
 * The streaming reply's rows: its closed blocks as markdown, the block still being written as plain
 * text, so each block changes look once (when it closes) and is drawn the same when committed.
 */
import { displayText } from '../layout/visibleText.ts';
import { textTail, type TextTail } from '../layout/textTail.ts';
import { hyperlinksAllowed } from './hyperlinks.ts';
import type { MarkdownState } from './loadMarkdown.ts';

export function liveReplyTail(text: string, markdown: MarkdownState, width: number, maxRows: number): TextTail {
  const safe = displayText(text);
  if (markdown.status !== 'ready') return textTail(safe, width, maxRows);
  const { closed, open } = markdown.module.splitOpenBlock(safe);
  const rows = closed ? markdown.module.renderMarkdown(closed, width, hyperlinksAllowed(text)) : [];
  const shown = [...rows, ...(rows.length && open ? [''] : []), ...(open ? [open] : [])].join('\n');
  return textTail(shown, width, maxRows);
}
