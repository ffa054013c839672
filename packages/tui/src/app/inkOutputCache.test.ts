/**
 * Ink's frame composer as patched for hermes (patches/ink+6.8.0.patch, build/output.js): rows, widths and
 * tokenized lines are cached across frames, and each row is composed from its own writes. The frames it
 * makes must be the ones unpatched Ink 6.8.0 made: a seeded corpus of frames (overlapping writes, clips,
 * wide characters, styles, hyperlinks, transformers, writes off the frame) is composed cold, warm and
 * with the caches of the static output, and its text must hash to what unpatched Ink's Output gave for
 * the same corpus (recorded once, below), besides a few frames written out.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../scripts/testing/seededRandom.ts';

type Transformer = (line: string, index: number) => string;
interface Output {
  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void;
  clip(clip: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
interface Cache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, weight: number): void;
  current: Map<string, V>;
  previous: Map<string, V>;
}
interface OutputModule {
  default: new (options: { width: number; height: number; once?: boolean }) => Output;
  GenerationCache: new <V>(limit: number) => Cache<V>;
}

async function inkOutput(): Promise<OutputModule> {
  // Ink exports only its index; the composer is its build/output.js, patched on install.
  const index = createRequire(import.meta.url).resolve('ink');
  return (await import(pathToFileURL(path.join(path.dirname(index), 'output.js')).href)) as OutputModule;
}

type Operation = { clip: { x1?: number; x2?: number; y1?: number; y2?: number } } | 'unclip' | { x: number; y: number; text: string; transformers: Transformer[] };
interface Frame {
  width: number;
  height: number;
  operations: Operation[];
}

const PIECES = ['a', 'word', ' ', '  ', '中文', '😀', 'é', '\x1b[1m', '\x1b[22m', '\x1b[31m', '\x1b[39m', '\x1b[2m', '\x1b[0m', '\x1b]8;;https://x.y\x07', '\x1b]8;;\x07', 'x'.repeat(30), '│', '\t'];
const numbered: Transformer = (line, index) => `>${index}${line}`;

function corpus(seed: number, count: number): Frame[] {
  const random = seededRandom(seed);
  const below = (n: number) => Math.floor(random() * n);
  const line = () => Array.from({ length: below(8) }, () => PIECES[below(PIECES.length)]).join('');
  const text = () => Array.from({ length: 1 + below(4) }, line).join('\n');
  return Array.from({ length: count }, () => {
    const width = 1 + below(40);
    const height = below(8);
    const operations: Operation[] = Array.from({ length: below(8) }, (): Operation => {
      const kind = random();
      if (kind < 0.15) return { clip: { x1: below(10), x2: below(40), y1: random() < 0.5 ? below(4) : undefined, y2: below(8) } };
      if (kind < 0.25) return 'unclip';
      return { x: below(30) - 3, y: below(9) - 2, text: text(), transformers: random() < 0.2 ? [numbered] : [] };
    });
    return { width, height, operations };
  });
}

function compose(module: OutputModule, frame: Frame, once = false): string {
  const output = new module.default({ width: frame.width, height: frame.height, once });
  for (const operation of frame.operations) {
    if (operation === 'unclip') output.unclip();
    else if ('clip' in operation) output.clip(operation.clip);
    else output.write(operation.x, operation.y, operation.text, { transformers: operation.transformers });
  }
  const { output: text, height } = output.get();
  return `${height}\n${text}`;
}

/** sha256 of the 4,000 frames of corpus(13, 4000) as unpatched Ink 6.8.0's Output composed them, joined by "\u0000". */
const UNPATCHED_INK_HASH = '1bd82f5910bdbf1d0c5d2d0afc7e63f0489e306fa7c2d58fd3a84193e4af2cbc';

describe("Ink's frame composer with caches across frames", () => {
  it('composes the seeded corpus exactly as unpatched Ink did, cold, warm and with the static output caches', async () => {
    const module = await inkOutput();
    const frames = corpus(13, 4000);
    const cold = frames.map((frame) => compose(module, frame));
    const warm = frames.map((frame) => compose(module, frame));
    const once = frames.map((frame) => compose(module, frame, true));
    expect(warm).toEqual(cold);
    expect(once).toEqual(cold);
    expect(createHash('sha256').update(cold.join('\u0000')).digest('hex')).toBe(UNPATCHED_INK_HASH);
  });

  it('draws overlapping writes, a wide character overwritten by a later write, and a row longer than the frame, as unpatched Ink did', async () => {
    const module = await inkOutput();
    const frame: Frame = {
      width: 10,
      height: 3,
      operations: [
        { x: 0, y: 0, text: '\x1b[1mbold\x1b[22m text', transformers: [] },
        { x: 2, y: 0, text: 'XY', transformers: [] },
        { x: 0, y: 1, text: '中文字', transformers: [] },
        { x: 1, y: 1, text: '!', transformers: [] },
        { x: 8, y: 2, text: '\x1b[31mred and more\x1b[39m', transformers: [] },
      ],
    };
    for (let pass = 0; pass < 2; pass += 1) {
      // As unpatched Ink drew it: the "!" lands on 中's second cell, and the row runs one cell longer.
      expect(compose(module, frame)).toBe('3\n\x1b[1mbo\x1b[22mXY text\n中!文字\n        \x1b[31mred and more\x1b[39m');
    }
  });

  it('keeps two generations of entries: the one in use survives, the oldest are dropped, the size stays bounded', async () => {
    const { GenerationCache } = await inkOutput();
    const cache = new GenerationCache<number>(10);
    cache.set('kept', 1, 4);
    cache.set('old', 2, 4);
    cache.set('a', 3, 4); // 12 > 10: a new generation
    expect(cache.get('kept')).toBe(1); // found in the last generation, moved to this one
    cache.set('b', 4, 4); // 4 + 4 + 4 > 10: another generation; 'old' was not used, and is gone
    expect(cache.get('old')).toBeUndefined();
    expect(cache.get('kept')).toBe(1);
    expect(cache.current.size + cache.previous.size).toBeLessThanOrEqual(4);
  });
});
