/** Finished items as printed text, each made once per width (the cache is shared by the printer and the pager). */
import type { DetailsModes } from '../details/detailsMode.ts';
import type { TranscriptItem } from '../state/viewState.ts';
import { itemText } from './itemText.tsx';
import { RenderCache } from './renderCache.ts';

const cache = new RenderCache(itemText);

export function transcriptTexts(items: readonly TranscriptItem[], width: number, details: DetailsModes): string[] {
  return items.map((item) => cache.render(item, width, details));
}

/** Drops what the transcript no longer holds. */
export function forgetTextsExcept(items: readonly TranscriptItem[]): void {
  cache.keepOnly(items);
}
