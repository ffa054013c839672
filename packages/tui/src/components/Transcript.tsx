import { Static, useStdout } from 'ink';
import { useLayoutEffect, useRef } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { TranscriptItem, ViewState } from '../state/viewState.ts';
import { useMarkdown } from '../markdown/useMarkdown.ts';
import { omittedText, printedOf, printsOutsideInk, turnChars } from '../transcript/printPlan.ts';
import { transcriptTexts } from '../transcript/transcriptTexts.ts';
import { TranscriptEntry } from './TranscriptEntry.tsx';

/** What one generation of the transcript has printed so far. */
interface Printing {
  generation: number;
  /** Items of the transcript looked at so far (chosen for printing, or left out for the notice). */
  seen: number;
  /** Chosen for printing, not printed yet (replies wait for the markdown renderer). */
  queued: TranscriptItem[];
  /** What <Static> prints: it only ever grows, and prints each item once. */
  inked: TranscriptItem[];
  /** Items to print as text made outside Ink, once <Static> has printed what comes before them. */
  unwritten: TranscriptItem[];
  /** Characters printed since the last prompt (printPlan.ts turnChars). */
  turnChars: number;
  /** Whether the generation's first batch has been printed. */
  started: boolean;
}

/**
 * Ids of the notices counting what was left out, each new (below every item's): the text made outside
 * Ink is cached by id, and one id per position made a reprint at the same width show an old count.
 */
let omittedNotices = 0;

const fresh = (generation: number): Printing => ({ generation, seen: 0, queued: [], inked: [], unwritten: [], turnChars: 0, started: false });

/**
 * Finished items are printed once and then belong to the terminal's scrollback: they are never
 * repainted, which keeps long sessions fast and flicker-free. What is printed at once is bounded
 * (transcript/printPlan.ts): a resumed session or a reprint shows its last few screens after a notice
 * (`/transcript` pages through everything), and a batch too big for Ink's layout, or a streamed reply's
 * paragraphs, is written as text made outside it (printPlan.ts printsOutsideInk). A new `generation`
 * prints again (after the screen was cleared for a narrower terminal).
 */
export function Transcript({ store, width, generation = 0 }: { store: StoreApi<ViewState>; width: number; generation?: number }) {
  const items = useStore(store, (state) => state.transcript);
  // An item is printed with the modes of the moment it is printed (it is never repainted).
  const details = useStore(store, (state) => state.details);
  const earlier = useStore(store, (state) => state.earlier ?? 0);
  const { stdout, write } = useStdout();
  const printing = useRef<Printing>(fresh(generation));
  if (printing.current.generation !== generation) printing.current = fresh(generation);
  const current = printing.current;
  // Items only grow within a generation; a shorter list (a new session's) is read from its start.
  if (current.seen > items.length) Object.assign(current, fresh(generation));
  if (current.seen < items.length) {
    const fromScratch = current.seen === 0;
    const batch = items.slice(current.seen);
    const { preamble, omitted, tail } = printedOf(batch, { width, rows: stdout.rows }, fromScratch);
    // Stored messages never loaded count among what is left out, wherever the session's start is.
    const unloaded = fromScratch || batch.some((item) => item.kind === 'header') ? earlier : 0;
    const notice: TranscriptItem[] = omitted + unloaded > 0 ? [{ kind: 'notice', id: -1 - omittedNotices++, level: 'info', text: omittedText(omitted, unloaded) }] : [];
    current.queued.push(...preamble, ...notice, ...tail);
    current.seen = items.length;
  }
  const firstReply = current.queued.findIndex((item) => item.kind === 'assistant');
  const markdown = useMarkdown(firstReply >= 0);
  // An item is printed once, for good: replies (and what follows them) wait for the markdown
  // renderer, loaded on first need, so none is printed plain and never rendered.
  const waiting = markdown.status === 'idle' || markdown.status === 'loading';
  const ready = current.queued.splice(0, waiting && firstReply >= 0 ? firstReply : current.queued.length);
  if (ready.length > 0) {
    current.turnChars = turnChars(current.turnChars, ready);
    if (current.unwritten.length === 0 && !printsOutsideInk(ready, current.turnChars, !current.started)) current.inked = [...current.inked, ...ready];
    else current.unwritten.push(...ready);
    current.started = true;
  }
  // After the commit in which <Static> wrote what comes before them, and outside it: the text of some
  // kinds is drawn by Ink's renderToString, which must not run inside this tree's commit.
  useLayoutEffect(() => {
    if (current.unwritten.length === 0) return;
    const timer = setImmediate(() => {
      const texts = transcriptTexts(current.unwritten.splice(0), width, details);
      for (const text of texts) write(`${text}\n`);
    });
    return () => clearImmediate(timer);
  });
  return <Static key={generation} items={current.inked}>{(item) => <TranscriptEntry key={item.id} item={item} width={width} details={details} />}</Static>;
}
