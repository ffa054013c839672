/**
 * Typo help for command names: the closest word to a mistyped one. The match scorer lives in the
 * contract (`contract/commandMatch.ts`) because the TUI filters with it too.
 */
export { fuzzyScore } from '../contract/commandMatch.ts';

/** Optimal-string-alignment distance: edits with adjacent transpositions (`stpo` → `stop` is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The closest word to a mistyped one, or undefined when nothing is plausibly meant. */
export function closestWord(typed: string, words: Iterable<string>): string | undefined {
  const t = typed.toLowerCase();
  if (t === '') return undefined;
  let prefixHit: string | undefined;
  let best: { word: string; distance: number } | undefined;
  for (const word of words) {
    if (word.startsWith(t) && (prefixHit === undefined || word.length < prefixHit.length || (word.length === prefixHit.length && word < prefixHit))) {
      prefixHit = word;
    }
    const distance = editDistance(t, word);
    if (best === undefined || distance < best.distance || (distance === best.distance && word < best.word)) {
      best = { word, distance };
    }
  }
  if (prefixHit !== undefined) return prefixHit;
  const allowed = t.length <= 3 ? 1 : t.length <= 6 ? 2 : 3;
  return best !== undefined && best.distance <= allowed ? best.word : undefined;
}
