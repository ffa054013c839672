/**
 * Small fuzzy scorer for command names (a few dozen short words): a dependency would buy nothing here.
 * Higher is better; null means no match.
 */

const EXACT = 3_000;
const PREFIX = 2_000;

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
