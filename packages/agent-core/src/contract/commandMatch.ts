/**
 * Matching the command word of a slash line against the catalog (`/st` → `/status`, `/stop`). Zod-free
 * and pure so both sides use the one scorer: the backend for `complete.slash`, the TUI synchronously
 * against its cached `commands.catalog` (a burst of keys then gives the same list as slow typing).
 */
import type { CommandDescriptor, CompletionItem, CompletionResult } from './commands.ts';

const EXACT = 3_000;
const PREFIX = 2_000;

/**
 * Small fuzzy scorer for command names (a few dozen short words): a dependency would buy nothing here.
 * Higher is better; null means no match.
 */
export function fuzzyScore(query: string, candidate: string): number | null {
  const q = query.toLowerCase();
  const c = candidate.toLowerCase();
  if (q === c) return EXACT;
  // All prefix hits tie, so the caller's name order decides (`/st` → status, stop).
  if (c.startsWith(q)) return PREFIX;
  return subsequenceScore(q, c);
}

/** Every query letter in order; rewards runs of adjacent letters and word starts, penalizes gaps. */
function subsequenceScore(q: string, c: string): number | null {
  if (q.length === 0) return null;
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = c.indexOf(ch, from);
    if (at < 0) return null;
    score += 10;
    if (at === previous + 1) score += 15;
    if (at === 0 || c[at - 1] === '-' || c[at - 1] === '_') score += 10;
    score -= Math.min(at - from, 10);
    previous = at;
    from = at + 1;
  }
  return score;
}

type CatalogRow = Pick<CommandDescriptor, 'name' | 'aliases' | 'description'>;

/**
 * Completes the command word of `text`. Exact and prefix hits on a name or alias come first, then
 * subsequence hits by score; ties by name. One item per command: its best word. Once arguments are being
 * typed there is nothing to complete here.
 */
export function matchCommandWord(text: string, catalog: readonly CatalogRow[]): CompletionResult {
  const match = /^(\s*)\/(\S*)$/.exec(text);
  if (!match) return { items: [], replace_from: text.length };
  const replace_from = match[1].length;
  const typed = match[2].toLowerCase();

  const hits: { entry: CatalogRow; word: string; score: number }[] = [];
  for (const entry of catalog) {
    let best: { word: string; score: number } | undefined;
    for (const word of [entry.name, ...entry.aliases]) {
      const score = typed === '' ? 0 : fuzzyScore(typed, word);
      // Prefer the name over an alias that scores the same.
      if (score !== null && (best === undefined || score > best.score)) best = { word, score };
    }
    if (best) hits.push({ entry, ...best });
  }
  hits.sort((a, b) => b.score - a.score || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0));
  const items: CompletionItem[] = hits.map(({ entry, word }) => ({
    text: `/${word}`,
    display: word === entry.name ? `/${word}` : `/${word} → /${entry.name}`,
    meta: entry.description,
  }));
  return { items, replace_from };
}
