import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStore } from '../sessions/sessionStore.ts';
import { registerBuiltinTools } from './builtins.ts';
import { ToolRegistry } from './registry.ts';
import { testContext } from './toolTestContext.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const registry = new ToolRegistry();
registerBuiltinTools(registry);
const store = SessionStore.open(path.join(tempDir('hermes-tool-search-'), 'state.db'));
store.createSession({ id: 'old-1', title: 'Database migration' });
store.appendMessage('old-1', { role: 'user', content: 'We need a plan for the postgres migration' });
store.appendMessage('old-1', { role: 'assistant', content: 'Plan: dump, migrate, verify the postgres data' });
store.createSession({ id: 'now' });
store.appendMessage('now', { role: 'user', content: 'what did we decide about postgres?' });
afterAll(() => store.close());

const search = (args: Record<string, unknown>) => registry.run('session_search', JSON.stringify(args), testContext({ sessionId: 'now', sessions: store }));

describe('session_search tool', () => {
  it('is a read-only tool in its own toolset', () => {
    expect(registry.get('session_search')).toMatchObject({ toolset: 'session_search', readOnly: true });
  });

  it('lists matches with session, role, date and the marked excerpt', async () => {
    const { result, error } = await search({ query: 'postgres', role: 'user' });
    expect(error).toBeUndefined();
    expect(result).toMatch(/^2 matches for "postgres" among user messages, best first:/);
    expect(result).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC · session "Database migration" \(old-1\) · user\n {3}We need a plan for the «postgres» migration/);
    expect(result).toContain('session now [this session] · user');
  });

  it('honours the limit and says plainly when nothing matched', async () => {
    expect((await search({ query: 'postgres', limit: 1 })).result).toMatch(/^1 match for "postgres"/);
    expect((await search({ query: 'kangaroo' })).result).toBe('No stored messages match "kangaroo". Try other or fewer keywords.');
  });

  it('fails with a reason when there is no store or no query', async () => {
    const noStore = await registry.run('session_search', '{"query":"x"}', testContext());
    expect(noStore.error).toMatch(/no session store/);
    expect((await search({ query: '  ' })).error).toMatch(/non-empty/);
  });

  it('says when text too short for an index was looked for only in recent messages', async () => {
    // The store's own search with a scan budget of one slice of 2 ids: only the two newest messages are read.
    const tight = { searchWithCoverage: (query: string, options = {}) => store.searchWithCoverage(query, { ...options, plan: { ranked: 500, scan: { budgetMs: 0, slice: 2 } } }) };
    const run = (query: string) => registry.run('session_search', JSON.stringify({ query }), testContext({ sessionId: 'now', sessions: tight }));
    const { result } = await run('ne');
    expect(result).toMatch(/^No stored messages match "ne"\. Try other or fewer keywords\.\nOnly messages since \d{4}-\d\d-\d\d \d\d:\d\d UTC were searched: text this short has no index, so older ones were not read\.$/);
    // Found in full by the store's own plan, which reads these three messages well within its budget.
    expect((await search({ query: 'ne' })).result).toMatch(/^1 match for "ne", best first:\n.*\n {3}We «ne»ed a plan for the postgres migration$/);
  });
});
