/**
 * The earlier messages read in pages from the real backend (the built hermes-rpc over real pipes, a
 * stored session in a temp home) make the same items, in the same order, as one read of them all,
 * with a call whose results are split across a page boundary, and a last call answered past `earlier`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStoredSession } from '../../../../scripts/bench/lib/sessionHome.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { silentLogger } from '../logging/logger.ts';
import { BackendProcess } from '../rpc/backendProcess.ts';
import { itemsFromHistory } from '../state/historyItems.ts';
import { CLEAN_ENV } from '../testing/realBackend.ts';
import { earlierPages, FIRST_PAGE, HISTORY_PAGE } from './earlierPages.ts';

const HERMES_RPC = fileURLToPath(new URL('../../../rpc-server/bin/hermes-rpc.cjs', import.meta.url));
const backends: BackendProcess[] = [];
afterEach(async () => {
  await Promise.all(backends.splice(0).map((backend) => backend.shutdown()));
});

const call = (id: string) => ({ id, type: 'function', function: { name: 'terminal', arguments: `{"command":"echo ${id}"}` } });

/** User prompts and replies, with a three-call reply placed so its results straddle `at`. */
function messages(count: number, straddling: number[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  while (out.length < count) {
    const n = out.length;
    if (straddling.includes(n + 2)) {
      const ids = [`c${n}a`, `c${n}b`, `c${n}c`];
      out.push({ role: 'assistant', content: `calling at ${n}`, toolCalls: ids.map(call) });
      for (const id of ids) out.push({ role: 'tool', content: `result ${id}`, toolName: 'terminal', toolCallId: id });
    } else out.push(n % 2 === 0 ? { role: 'user', content: `prompt ${n}` } : { role: 'assistant', content: `reply ${n}` });
  }
  return out;
}

describe('earlierPages', () => {
  it('makes the items one read of all the earlier messages makes, page after page', async () => {
    const home = tempDir('hermes-pages-home-');
    const earlier = FIRST_PAGE + 2 * HISTORY_PAGE + 100;
    // Calls whose results are split by the first and the second page's ends; the last earlier message is a call answered after it.
    const ends = [FIRST_PAGE, FIRST_PAGE + HISTORY_PAGE];
    await writeStoredSession(home, { id: 'paged', title: 'paged' }, messages(earlier + 10, [...ends, earlier]));
    const backend = new BackendProcess({ command: process.execPath, args: [HERMES_RPC] }, silentLogger, { env: { ...process.env, ...CLEAN_ENV, HERMES_HOME: home }, cwd: path.dirname(HERMES_RPC) });
    backends.push(backend);
    await backend.waitReady(30_000);
    const whole = await backend.client.request('session.history', { session_id: 'paged' });
    const expected = itemsFromHistory(whole.messages, earlier);
    const paged = [];
    for await (const page of earlierPages(backend.client, 'paged', earlier)) paged.push(...page);
    expect(paged.map(({ id: _id, ...item }) => item)).toEqual(expected);
    expect(new Set(paged.map((item) => item.id)).size).toBe(paged.length);
    // The straddling calls have their results (not shown as unanswered).
    const tools = paged.flatMap((item) => (item.kind === 'tool' ? [[item.tool.toolId, item.tool.status, item.tool.output]] : []));
    const straddled = [...ends, earlier].map((end) => end - 2).flatMap((n) => ['a', 'b', 'c'].map((x) => `c${n}${x}`));
    expect(tools).toEqual(straddled.map((id) => [id, 'done', `result ${id}`]));
  });
});
