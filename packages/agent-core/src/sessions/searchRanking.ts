import { escapeRegExp, foldText } from './ftsQuery.ts';

/**
 * bm25 over a search's candidates (the newest matches), computed here rather than by FTS5's bm25():
 * that one first counts, for each phrase of the query, every row of the whole index that holds it (for
 * the IDF), which costs what a full scan of the match costs (0.1 s for a common word at 1 M messages)
 * whatever the LIMIT. Here the statistics (IDF, average length) are those of the candidates, so the
 * cost is bounded by their number. Same formula and constants as FTS5 (k1 1.2, b 0.75).
 */

/** What a term looks like to the index it was matched in. */
export type Needle = { kind: 'words'; tokens: string[]; prefix: boolean } | { kind: 'substring'; text: string };

export interface Candidate {
  id: number;
  /** The indexed text, or its start. */
  text: string;
  /** Tokens the index holds for the row (its docsize), the length bm25 normalizes by. */
  length: number;
}

const K1 = 1.2;
const B = 0.75;
const TOKEN = '\\p{L}\\p{N}\\p{Co}';

/**
 * A counter of a needle's occurrences in a text folded as its index folds: whole tokens in sequence (the
 * last one a prefix for `foo*`) for the word index, a substring for the trigram index (case only).
 */
function counter(needle: Needle): (folded: string) => number {
  const source =
    needle.kind === 'substring'
      ? escapeRegExp(needle.text.toLowerCase())
      : `(?<![${TOKEN}])${needle.tokens.map(escapeRegExp).join(`[^${TOKEN}]+`)}${needle.prefix ? '' : `(?![${TOKEN}])`}`;
  if (!source) return () => 0;
  const pattern = new RegExp(source, 'gu');
  return (folded) => {
    let count = 0;
    pattern.lastIndex = 0;
    while (pattern.exec(folded)) count += 1;
    return count;
  };
}

/** Candidate ids, best first (ties: the newer first). */
export function rankCandidates(candidates: readonly Candidate[], needles: readonly Needle[]): number[] {
  const counters = needles.map(counter);
  // One index per search, so one way of folding: the trigram index folds case only.
  const fold = needles.some((n) => n.kind === 'words') ? foldText : (text: string) => text.toLowerCase();
  const docs = candidates.map((c) => {
    const folded = fold(c.text);
    return { id: c.id, length: Math.max(c.length, 1), tf: counters.map((count) => count(folded)) };
  });
  const n = docs.length;
  const averageLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(n, 1);
  const idf = needles.map((_, t) => {
    const holding = docs.filter((d) => d.tf[t]! > 0).length;
    // FTS5 floors the IDF at a small positive value so a term in every row still counts.
    return Math.max(Math.log((n - holding + 0.5) / (holding + 0.5)), 1e-6);
  });
  const score = (d: (typeof docs)[number]) =>
    d.tf.reduce((sum, tf, t) => sum + (idf[t]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.length) / averageLength)), 0);
  return docs
    .map((d) => ({ id: d.id, score: score(d) }))
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .map((d) => d.id);
}
