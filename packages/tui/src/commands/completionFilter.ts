/**
 * The synchronous filter behind the completion list: the text as it is at the moment of the key, matched
 * against what the TUI has cached (the command catalog, session titles, model names). No request is made
 * here, so a burst of keys gives the same list as slow typing.
 */
import { fuzzyScore, matchCommandWord, type CommandDescriptor, type CompletionItem } from '@hermes/rpc-server/protocol';
import { DETAIL_MODES, DETAIL_SECTIONS } from '../details/detailsMode.ts';
import type { CompletionQuery, CompletionState } from './slashCompletion.ts';

/** What the filter matches against; each part is empty until its first fetch answers. */
export interface CompletionSources {
  catalog: readonly CommandDescriptor[];
  /** Stored sessions, newest first (`session.list`). */
  sessions: readonly { id: string; title: string | null; preview: string }[];
  /** `provider:model` values, the current provider's first (`model.options`). */
  models: readonly string[];
}

/** The list for `query`, or undefined when nothing matches (the list closes). */
export function filterCompletions(
  query: CompletionQuery,
  sources: CompletionSources,
  previous: CompletionState | undefined,
): CompletionState | undefined {
  let items: CompletionItem[];
  let replaceFrom: number;
  if (query.kind === 'command') {
    const result = matchCommandWord(query.text, sources.catalog);
    items = result.items;
    replaceFrom = result.replace_from;
  } else if (query.kind === 'argument') {
    items = rankWords(query.word, argumentCandidates(query, sources));
    replaceFrom = query.replaceFrom;
  } else {
    return undefined; // paths come from `complete.path`, asynchronously
  }
  if (items.length === 0) return undefined;
  return withSelection({ kind: query.kind, text: query.text, items, replaceFrom, selected: 0, moved: false }, previous);
}

/** Keeps the selection on the same item when the refined list still has it (and the user had moved it). */
export function withSelection(next: CompletionState, previous: CompletionState | undefined): CompletionState {
  if (!previous?.moved) return next;
  const kept = next.items.findIndex((item) => item.text === previous.items[previous.selected]?.text);
  return kept < 0 ? next : { ...next, selected: kept, moved: true };
}

function argumentCandidates(query: Extract<CompletionQuery, { kind: 'argument' }>, sources: CompletionSources): CompletionItem[] {
  switch (query.command) {
    case 'resume':
      return sources.sessions.map((session) => {
        const name = session.title ?? session.id;
        return { text: name, display: name, meta: session.title ? session.preview : '' };
      });
    case 'model':
      return sources.models.map((model) => ({ text: model, display: model, meta: '' }));
    case 'help':
      return sources.catalog.map((entry) => ({ text: entry.name, display: entry.name, meta: entry.description }));
    case 'details': {
      const words = query.position === 0 ? [...DETAIL_SECTIONS, ...DETAIL_MODES] : (DETAIL_SECTIONS as readonly string[]).includes(query.previousWord) ? DETAIL_MODES : [];
      return words.map((word) => ({ text: word, display: word, meta: '' }));
    }
    default:
      return [];
  }
}

/** Candidates matching `typed` by the catalog's scorer (best first, the source's order on ties); all when empty. */
function rankWords(typed: string, candidates: CompletionItem[]): CompletionItem[] {
  if (typed === '') return candidates;
  const scored: { item: CompletionItem; score: number; order: number }[] = [];
  candidates.forEach((item, order) => {
    const score = fuzzyScore(typed, item.text);
    if (score !== null) scored.push({ item, score, order });
  });
  scored.sort((a, b) => b.score - a.score || a.order - b.order);
  return scored.map(({ item }) => item);
}
