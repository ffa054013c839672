/**
 * Finished items rendered once per width: an item never changes, so its text at a width (and with the
 * details modes of the moment) is made once and kept; a new width renders it again, and replaces it.
 */
import { DEFAULT_DETAILS, type DetailsModes } from '../details/detailsMode.ts';
import type { TranscriptItem } from '../state/viewState.ts';

export type ItemRenderer = (item: TranscriptItem, width: number, details: DetailsModes) => string;

interface Entry {
  key: string;
  text: string;
}

export class RenderCache {
  private readonly entries = new Map<number, Entry>();

  constructor(private readonly renderItem: ItemRenderer) {}

  /** The item's text at `width`: from the cache when it was rendered at that width with these modes. */
  render(item: TranscriptItem, width: number, details: DetailsModes = DEFAULT_DETAILS): string {
    const key = `${width}\u0000${details.thinking}\u0000${details.tools}`;
    const hit = this.entries.get(item.id);
    if (hit?.key === key) return hit.text;
    const text = this.renderItem(item, width, details);
    this.entries.set(item.id, { key, text });
    return text;
  }

  /** Forgets items no longer in the transcript (after `/clear` or a switch of session). */
  keepOnly(items: readonly TranscriptItem[]): void {
    const ids = new Set(items.map((item) => item.id));
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
  }
}
