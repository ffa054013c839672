/**
 * The one seeded generator (mulberry32) of the generated tests, so a failing case can be replayed from
 * its seed. Here, in the repo's test tooling, so every package's tests can use it (the TUI may reach no
 * other package, but may reach `scripts/`).
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
