/**
 * A long paste stands in the draft as one short label ("[pasted 42 lines]") so the composer stays
 * readable; the full text is kept beside the draft and put back when the prompt is sent, opened in
 * the editor, or when a key would change the label itself (Backspace into it shows the text to edit).
 */

/** Pastes with more lines than this are shown as a label. */
const PASTE_COLLAPSE_LINES = 10;

export interface PastedText {
  /** What the draft shows, unique within the draft. */
  label: string;
  text: string;
}

export const lineCount = (text: string) => text.split('\n').length;

/** The label for a paste, or undefined when it is short enough to show as it is. */
export function pasteLabel(text: string, draft: string): string | undefined {
  const lines = lineCount(text);
  if (lines <= PASTE_COLLAPSE_LINES) return undefined;
  const base = `[pasted ${lines} lines]`;
  let label = base;
  for (let n = 2; draft.includes(label); n++) label = `[pasted ${lines} lines #${n}]`;
  return label;
}

/** The draft with every label still in it replaced by its paste. */
export function expandPastes(draft: string, pastes: readonly PastedText[] = []): string {
  let text = draft;
  for (const paste of pastes) text = text.replace(paste.label, () => paste.text);
  return text;
}

interface Draft {
  draft: string;
  cursor: number;
  pastes?: readonly PastedText[];
}

/**
 * When `after` no longer holds a label that `before` held whole, the key touched the label: instead of
 * applying it, the paste is expanded in `before` (the cursor keeps its place relative to the text).
 */
export function expandTouchedPaste(before: Draft, after: Draft): Draft | undefined {
  const pastes = before.pastes ?? [];
  const touched = pastes.find((paste) => before.draft.includes(paste.label) && !after.draft.includes(paste.label));
  if (!touched) return undefined;
  const start = before.draft.indexOf(touched.label);
  const end = start + touched.label.length;
  const grow = touched.text.length - touched.label.length;
  const cursor = before.cursor >= end ? before.cursor + grow : before.cursor > start ? end + grow : before.cursor;
  return {
    draft: before.draft.slice(0, start) + touched.text + before.draft.slice(end),
    cursor,
    pastes: pastes.filter((paste) => paste !== touched),
  };
}
