import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../state/viewState.ts';
import { RenderCache } from './renderCache.ts';

const item = (id: number, text: string): TranscriptItem => ({ kind: 'user', id, text });
const DETAILS = { thinking: 'collapsed', tools: 'collapsed' } as const;

/** A cache whose renderer counts its calls, so a test sees which renders were made again. */
function counting() {
  const calls: string[] = [];
  const cache = new RenderCache((it, width, details) => {
    calls.push(`${it.id}@${width}/${details.tools}`);
    return `${it.kind === 'user' ? it.text : ''} at ${width}`;
  });
  return { cache, calls };
}

describe('RenderCache', () => {
  it('renders an item once per width: the same width again is taken from the cache', () => {
    const { cache, calls } = counting();
    expect(cache.render(item(1, 'hi'), 80, DETAILS)).toBe('hi at 80');
    expect(cache.render(item(1, 'hi'), 80, DETAILS)).toBe('hi at 80');
    expect(cache.render(item(2, 'yo'), 80, DETAILS)).toBe('yo at 80');
    expect(calls).toEqual(['1@80/collapsed', '2@80/collapsed']);
  });

  it('renders again at a new width, and for other details modes', () => {
    const { cache, calls } = counting();
    cache.render(item(1, 'hi'), 80, DETAILS);
    expect(cache.render(item(1, 'hi'), 40, DETAILS)).toBe('hi at 40');
    cache.render(item(1, 'hi'), 40, { ...DETAILS, tools: 'expanded' });
    expect(calls).toEqual(['1@80/collapsed', '1@40/collapsed', '1@40/expanded']);
  });

  it('forgets items the transcript no longer holds', () => {
    const { cache, calls } = counting();
    cache.render(item(1, 'hi'), 80, DETAILS);
    cache.render(item(2, 'yo'), 80, DETAILS);
    cache.keepOnly([item(2, 'yo')]);
    cache.render(item(1, 'hi'), 80, DETAILS);
    cache.render(item(2, 'yo'), 80, DETAILS);
    expect(calls).toEqual(['1@80/collapsed', '2@80/collapsed', '1@80/collapsed']);
  });
});
