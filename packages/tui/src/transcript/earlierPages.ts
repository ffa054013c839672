/**
 * The messages a resume did not load, as transcript items, read from the backend a page at a time
 * (`session.history` with offset/limit), so `/transcript`'s pager shows the first ones while the rest
 * are read. A tool call's results follow it: the messages from a page's last call on are kept for the
 * next page, so each call is made into an item with its results.
 */
import type { TranscriptMessage } from '@hermes/rpc-server/protocol';
import type { HermesClient } from '../rpc/hermesClient.ts';
import { itemsFromHistory } from '../state/historyItems.ts';
import type { TranscriptItem } from '../state/viewState.ts';

/** Messages a page: ~5 ms of the backend's time each, well under a frame. */
export const HISTORY_PAGE = 500;
/** The first page is smaller: the pager's first screen waits for it and needs only a few messages. */
export const FIRST_PAGE = 50;
/** Read past the last earlier message: the results of its calls (the loaded tail does not have them). */
const RESULTS_AHEAD = 64;
/** Ids of these items: far above any the transcript reaches. */
const EARLIER_IDS = 1_000_000_000;

export async function* earlierPages(client: HermesClient, sessionId: string, earlier: number): AsyncGenerator<TranscriptItem[]> {
  let carried: TranscriptMessage[] = [];
  let made = 0;
  for (let offset = 0, size = FIRST_PAGE; offset < earlier; offset += size, size = HISTORY_PAGE) {
    const last = offset + size >= earlier;
    const limit = last ? earlier - offset + RESULTS_AHEAD : size;
    const { messages } = await client.request('session.history', { session_id: sessionId, offset, limit });
    const window = [...carried, ...messages];
    // Up to the last message that is not a result (a call's results may be on the next page).
    const cut = last ? Math.min(window.length, carried.length + earlier - offset) : Math.max(0, window.findLastIndex((m) => m.role !== 'tool'));
    carried = window.slice(cut);
    yield itemsFromHistory(window, cut).map((item) => ({ ...item, id: EARLIER_IDS + made++ }) as TranscriptItem);
    if (messages.length < limit) return;
  }
}
