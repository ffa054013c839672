/**
 * A HERMES_HOME whose state.db holds one long stored session, for benchmarks that resume it
 * (`hermes --tui --resume <id>`). Built once per size and schema version under
 * os.tmpdir()/hermes-bench-cache/ and reused by later runs. The database is written through
 * PRODUCT_ROOT's own SessionStore, so it has the schema of the build under measurement (also an older
 * checkout named by HERMES_BENCH_ROOT).
 *
 * Content is realistic and deterministic: turns of a prompt, an assistant message calling a tool, the
 * tool's output, and a markdown reply with a list and a code block. Every message names its position
 * (`#1` … `#N`, see `messageMark`) at its start and, as `(#N)`, on its last line, so a benchmark or test
 * can tell which ones reached the screen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_CACHE, PRODUCT_ROOT } from './figures.ts';

export interface SessionHome {
  /** The HERMES_HOME directory (state.db inside). */
  home: string;
  /** The stored session's id, for `--resume`. */
  sessionId: string;
}

/** The text each message carries to name its 1-based position in the session. */
export const messageMark = (position: number): string => `#${position}`;

interface StoreModule {
  SessionStore: { open(file: string): ProductStore };
}

/** The part of SessionStore this builder uses, as every schema version so far has it. */
interface ProductStore {
  db: { transaction(fn: () => void): () => void };
  createSession(input: { id: string; source?: string; model?: string; cwd?: string; title?: string | null }): unknown;
  appendMessage(sessionId: string, input: Record<string, unknown>): number;
  close(): void;
}

const FILES = ['src/index.ts', 'src/store/db.ts', 'packages/tui/src/app.tsx', 'README.md', 'scripts/build.ts'];
const WORDS = 'the store keeps every message so a resumed session shows what was said and done before the next turn'.split(' ');

function prose(seed: number, words: number): string {
  return Array.from({ length: words }, (_, i) => WORDS[(seed * 7 + i * 3) % WORDS.length]).join(' ');
}

/** Message `position` (1-based) of the session, by its place in a four-message turn. */
function message(position: number): Record<string, unknown> {
  const turn = Math.floor((position - 1) / 4);
  const file = FILES[turn % FILES.length]!;
  const mark = messageMark(position);
  switch ((position - 1) % 4) {
    case 0:
      return { role: 'user', content: `${mark} Please look at ${file} and explain why ${prose(turn, 12)}. (${mark})` };
    case 1:
      return {
        role: 'assistant',
        content: `${mark} Reading ${file} first. (${mark})`,
        toolCalls: [{ id: `call_${position}`, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: file }) } }],
      };
    case 2:
      return {
        role: 'tool',
        toolName: 'read_file',
        toolCallId: `call_${position - 1}`,
        content: `${mark}\n${Array.from({ length: 12 }, (_, i) => `${String(i + 1).padStart(4)}  export const value${i} = ${turn + i}; // ${prose(turn + i, 6)}`).join('\n')}\n(${mark})`,
      };
    default:
      return {
        role: 'assistant',
        content: [
          `${mark} **${file}** does three things:`,
          '',
          `1. It ${prose(turn, 14)}.`,
          `2. It ${prose(turn + 1, 10)} — see \`value${turn % 12}\`.`,
          `3. It ${prose(turn + 2, 18)}.`,
          '',
          '```ts',
          `export function load${turn}(path: string): string {`,
          `  return readFileSync(path, 'utf8'); // ${prose(turn, 5)}`,
          '}',
          '```',
          '',
          `In short: ${prose(turn + 3, 24)}. (${mark})`,
        ].join('\n'),
      };
  }
}

/** The session's messages, 1 to `count`, as sessionHome stores them. */
export function* benchMessages(count: number): Generator<Record<string, unknown>> {
  for (let position = 1; position <= count; position += 1) yield message(position);
}

/**
 * Writes one stored session holding `messages` (NewMessage fields: role, content, toolCalls, toolName,
 * toolCallId…) into `home`/state.db, through PRODUCT_ROOT's SessionStore. Also for tests that need a
 * session no live run could make quickly (10,000 messages, a 5 MB reply).
 */
export async function writeStoredSession(home: string, session: { id: string; title: string }, messages: Iterable<Record<string, unknown>>): Promise<void> {
  const storeUrl = pathToFileURL(path.join(PRODUCT_ROOT, 'packages/agent-core/src/sessions/sessionStore.ts')).href;
  const { SessionStore } = (await import(storeUrl)) as StoreModule;
  const store = SessionStore.open(path.join(home, 'state.db'));
  try {
    store.createSession({ id: session.id, source: 'tui', model: 'scripted-model', cwd: os.tmpdir(), title: session.title });
    // One transaction for all: appendMessage's own becomes a savepoint, and the build takes seconds, not minutes.
    store.db.transaction(() => {
      for (const message of messages) store.appendMessage(session.id, message);
    })();
  } finally {
    store.close();
  }
}

/**
 * The home holding one session of `messages` messages; built on first use (a few seconds for 10,000),
 * then taken from the cache. Concurrent builders each build into their own folder and the first rename wins.
 */
export async function sessionHome(messages: number): Promise<SessionHome> {
  if (!Number.isInteger(messages) || messages < 1) throw new Error(`sessionHome wants a whole number of messages ≥ 1, got ${messages}`);
  const schemaUrl = pathToFileURL(path.join(PRODUCT_ROOT, 'packages/agent-core/src/sessions/schema.ts')).href;
  const { SCHEMA_VERSION } = (await import(schemaUrl)) as { SCHEMA_VERSION: number };
  const sessionId = `20260101_000000_bench${String(messages).padStart(7, '0')}`;
  const home = path.join(BENCH_CACHE, `session-home-${messages}-schema${SCHEMA_VERSION}-v2`);
  if (fs.existsSync(path.join(home, 'state.db'))) return { home, sessionId };

  fs.mkdirSync(BENCH_CACHE, { recursive: true });
  const building = fs.mkdtempSync(`${home}.building-`);
  try {
    await writeStoredSession(building, { id: sessionId, title: `bench session of ${messages} messages` }, benchMessages(messages));
    try {
      fs.renameSync(building, home);
    } catch (error) {
      // Another run finished the same home first: use that one.
      if (!fs.existsSync(path.join(home, 'state.db'))) throw error;
      fs.rmSync(building, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true });
    throw error;
  }
  return { home, sessionId };
}
