import { describe, expect, it } from 'vitest';
import { languagesPrepared } from './highlightCode.ts';
import { loadMarkdown, markdownState, preloadMarkdown, PRELOADED_LANGUAGES } from './loadMarkdown.ts';

describe('preloading the markdown renderer', () => {
  it('loads it, warms it and builds the common grammars; once loaded or loading, does nothing', async () => {
    expect(markdownState().status).toBe('idle');
    const preloading = preloadMarkdown();
    expect(markdownState().status).toBe('loading');
    expect(await preloading).toBe(true);
    expect(markdownState().status).toBe('ready');
    expect([...languagesPrepared()]).toEqual(expect.arrayContaining([...PRELOADED_LANGUAGES]));
    expect(await preloadMarkdown()).toBe(false);
    // The renderer a reply asks for is the preloaded one.
    const state = markdownState();
    expect(state.status === 'ready' && state.module).toBe(await loadMarkdown());
  });
});
