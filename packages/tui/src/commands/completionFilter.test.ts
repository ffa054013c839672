import type { CommandDescriptor } from '@hermes/rpc-server/protocol';
import { describe, expect, it } from 'vitest';
import type { Key } from '../input/keyParser.ts';
import { filterCompletions, type CompletionSources } from './completionFilter.ts';
import { applyCompletion, applyCompletionKey, completionQuery, type CompletionState } from './slashCompletion.ts';

const command = (name: string, aliases: string[] = []): CommandDescriptor => ({
  name, aliases, description: `about ${name}`, category: 'info', args_hint: '', source: 'builtin',
});
const sources: CompletionSources = {
  catalog: [command('status'), command('stop'), command('help', ['h']), command('history'), command('model'), command('new', ['reset'])],
  sessions: [{ id: 's1', title: 'fix the parser', preview: 'the parser fails' }, { id: 's2', title: null, preview: 'hi' }],
  models: ['openai:gpt-4o', 'openai:gpt-4o-mini', 'anthropic:claude-sonnet'],
};
const at = (draft: string) => ({ draft, cursor: draft.length });
const listFor = (draft: string, previous?: CompletionState) => {
  const query = completionQuery(at(draft));
  return query ? filterCompletions(query, sources, previous) : undefined;
};
const texts = (draft: string) => listFor(draft)?.items.map((item) => item.text);
const key = (name: string): Key => ({ type: 'key', name, ctrl: false, meta: false, shift: false });

/** Types `keys` one at a time as the app does: the list is recomputed after each composer change. */
function typeKeys(keys: (string | Key)[]): { draft: string; submitted?: string } {
  let draft = '';
  let list: CompletionState | undefined;
  for (const k of keys) {
    if (typeof k === 'string') draft += k;
    else {
      const outcome = list ? applyCompletionKey(list, draft, k) : { kind: 'pass' as const };
      if (outcome.kind === 'submit') return { draft: '', submitted: outcome.text };
      if (outcome.kind === 'apply') draft = outcome.composer.draft;
      if (outcome.kind === 'select') {
        list = outcome.state;
        continue;
      }
      if (outcome.kind === 'pass' && k.type === 'key' && k.name === 'enter') return { draft: '', submitted: draft.trim() };
    }
    list = listFor(draft, list);
  }
  return { draft };
}

describe('the synchronous completion filter', () => {
  it('matches the command word against the cached catalog with the contract scorer', () => {
    // Prefix hits first (ties by name), then subsequence hits.
    expect(texts('/st')?.slice(0, 2)).toEqual(['/status', '/stop']);
    expect(texts('/st')).toContain('/history');
    expect(texts('/he')).toEqual(['/help']);
    expect(texts('/reset')).toEqual(['/reset']);
    expect(texts('/')).toEqual(['/help', '/history', '/model', '/new', '/status', '/stop']);
    expect(listFor('/zzz')).toBeUndefined();
  });

  it('completes /help with command names, /model with model.options, /resume with session titles, /details with its words', () => {
    expect(texts('/help sta')).toEqual(['status']);
    expect(texts('/model mini')).toEqual(['openai:gpt-4o-mini']);
    expect(texts('/model ')).toEqual(sources.models);
    expect(texts('/resume fix')).toEqual(['fix the parser']);
    expect(texts('/resume ')).toEqual(['fix the parser', 's2']);
    expect(texts('/details ')).toEqual(['thinking', 'tools', 'hidden', 'collapsed', 'expanded']);
    expect(texts('/details tools ex')).toEqual(['expanded']);
    expect(listFor('/details hidden x')).toBeUndefined();
  });

  it('keeps a moved selection on the same item as the text is refined, else starts at the top', () => {
    const moved = { ...listFor('/')!, selected: 3, moved: true };
    expect(listFor('/n', moved)?.items[listFor('/n', moved)!.selected].text).toBe('/new');
    expect(listFor('/s', listFor('/'))?.selected).toBe(0);
  });

  it('gives a burst the same result as slow typing: /he Tab Enter runs /help', () => {
    expect(typeKeys(['/', 'h', 'e', key('tab'), key('enter')])).toEqual({ draft: '', submitted: '/help' });
    expect(applyCompletion('/he', 0, listFor('/he')!.items[0])).toEqual({ draft: '/help ', cursor: 6 });
  });

  it('/ Down Down Tab completes the third item; /sta Enter runs the highlighted /status', () => {
    expect(typeKeys(['/', key('down'), key('down'), key('tab')])).toEqual({ draft: '/model ' });
    expect(typeKeys(['/', 's', 't', 'a', key('enter')])).toEqual({ draft: '', submitted: '/status' });
  });
});
