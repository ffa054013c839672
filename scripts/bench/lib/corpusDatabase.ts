/**
 * state.db files holding the message corpus (messageCorpus.ts), built once through PRODUCT_ROOT's own
 * SessionStore (its built library bundle) and cached under os.tmpdir()/hermes-bench-cache/, keyed by the
 * corpus version, the product's schema version and the size: a changed schema or corpus rebuilds.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_CACHE, PRODUCT_ROOT } from './figures.ts';
import { CORPUS_VERSION, MESSAGES_PER_SESSION, messageCorpus } from './messageCorpus.ts';

/** The slice of the product's SessionStore the builder uses (stable across builds). */
interface ProductStore {
  db: { transaction(fn: () => void): () => void; pragma(source: string, options?: { simple: boolean }): unknown };
  createSession(input: { id: string; title?: string | null }): unknown;
  appendMessage(sessionId: string, message: object): number;
  close(): void;
}
interface ProductStoreClass {
  open(file: string): ProductStore;
}

async function productStoreClass(): Promise<ProductStoreClass> {
  const bundle = path.join(PRODUCT_ROOT, 'packages/agent-core/dist/index.js');
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` in ${PRODUCT_ROOT}`);
  const { SessionStore } = (await import(pathToFileURL(bundle).href)) as { SessionStore: ProductStoreClass };
  return SessionStore;
}

/** The schema version the product's store creates, read from a fresh database it made. */
function schemaVersion(SessionStore: ProductStoreClass): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-schema-'));
  try {
    const store = SessionStore.open(path.join(dir, 'state.db'));
    const version = store.db.pragma('user_version', { simple: true }) as number;
    store.close();
    return version;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Where the database for this corpus size and the product's schema is (or would be) cached. */
export async function corpusPath(messages: number): Promise<{ home: string; file: string }> {
  const home = path.join(BENCH_CACHE, `corpus-v${CORPUS_VERSION}-schema${schemaVersion(await productStoreClass())}-${messages}`);
  return { home, file: path.join(home, 'state.db') };
}

/**
 * A HERMES_HOME whose state.db holds `messages` corpus messages (sessions of 200, oldest first), built
 * now if the cache has none for this corpus, schema and size. `log` hears about a build (it takes minutes at 1 M).
 */
export async function corpusHome(messages: number, log: (line: string) => void = () => {}): Promise<{ home: string; file: string; built: boolean }> {
  const SessionStore = await productStoreClass();
  const { home, file } = await corpusPath(messages);
  if (fs.existsSync(file)) return { home, file, built: false };

  const building = `${home}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  fs.mkdirSync(building, { recursive: true });
  const t0 = performance.now();
  const store = SessionStore.open(path.join(building, 'state.db'));
  const corpus = messageCorpus();
  const batch = 20_000;
  for (let start = 0; start < messages; start += batch) {
    store.db.transaction(() => {
      for (let i = start; i < Math.min(messages, start + batch); i += 1) {
        const session = Math.floor(i / MESSAGES_PER_SESSION);
        if (i % MESSAGES_PER_SESSION === 0) store.createSession({ id: `s${session}`, title: corpus.title(session) });
        store.appendMessage(`s${session}`, corpus.message(i));
      }
    })();
    if ((start / batch) % 10 === 9) log(`built ${(start + batch).toLocaleString('en')} of ${messages.toLocaleString('en')} messages`);
  }
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  fs.renameSync(building, home);
  log(`built ${messages.toLocaleString('en')} messages in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return { home, file, built: true };
}
