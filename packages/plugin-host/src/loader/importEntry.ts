import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

type ScopedImport = (specifier: string, parent: string) => Promise<unknown>;

let tsImport: Promise<ScopedImport> | null = null;

/**
 * tsx, registered once and only when a TypeScript entry is met. The ESM loader is namespaced (it
 * compiles the plugin's import graph only); the CommonJS hook is needed too, because a `.ts` file
 * outside a `"type": "module"` package is compiled to CommonJS and `require`s its siblings.
 */
function typescriptImport(): Promise<ScopedImport> {
  tsImport ??= Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]).then(([esm, cjs]) => {
    cjs.register();
    return esm.register({ namespace: 'hermes-plugins' }).import as ScopedImport;
  });
  return tsImport;
}

const TS_EXTENSIONS = new Set(['.ts', '.mts', '.cts']);

export const isTypeScript = (entry: string): boolean => TS_EXTENSIONS.has(path.extname(entry));

/**
 * Plugins are imported together, so which plugin's code is running is known only if each entry
 * announces itself: in the graph that imports it, a marker module just before it calls back
 * synchronously right before the entry's own code (its imports included) is evaluated. A marker
 * names a number, not the entry: a short URL is cheap to resolve, and a number used once makes each
 * marker a new module (a module is evaluated only once per process).
 */
const EVALUATING = Symbol.for('hermes.plugin-host.evaluating');
const evaluatingCallbacks = new Map<number, () => void>();
(globalThis as Record<symbol, unknown>)[EVALUATING] = (id: number) => evaluatingCallbacks.get(id)?.();
let markers = 0;

/** A marker calling `evaluating` when it runs; `done()` forgets the callback. */
function marker(evaluating: () => void): { url: string; done: () => void } {
  const id = (markers += 1);
  evaluatingCallbacks.set(id, evaluating);
  return { url: `data:text/javascript,globalThis[Symbol.for(${encodeURIComponent(JSON.stringify(EVALUATING.description))})](${id})`, done: () => evaluatingCallbacks.delete(id) };
}

const dataModule = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;

/** A graph's modules are base64: a data: URL in another's source is then not percent-encoded again at each level. */
const graphModule = (source: string) => `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;

/**
 * Node's own import(), also where a test runner rewrites `import()` in the code it loads (vitest
 * does, and evaluates a graph's imports its own way): the evaluation order of a graph is what
 * `importInOrder` relies on. Where the runner's own evaluation leaves Function code no import()
 * at all (vitest on Node 20), Node's default loader is asked for explicitly.
 */
const functionImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
let mainContextImport: ((specifier: string) => Promise<unknown>) | null = null;
const nativeImport = (specifier: string): Promise<unknown> =>
  functionImport(specifier).catch((error: unknown) => {
    if ((error as { code?: unknown } | null)?.code !== 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') throw error;
    mainContextImport ??= new vm.Script('(specifier) => import(specifier)', { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }).runInThisContext() as (specifier: string) => Promise<unknown>;
    return mainContextImport(specifier);
  });

/** The URL an entry is imported by; `generation` > 0 bypasses the module cache so a reload sees edited files. */
function entryUrl(entry: string, generation: number): string {
  const url = pathToFileURL(entry);
  if (generation > 0) url.searchParams.set('hermes_reload', String(generation));
  return url.href;
}

/**
 * Imports a plugin entry on its own. `evaluating` is called right before the entry's code runs (for
 * a TypeScript entry, when its import starts: the caller imports those one at a time).
 */
export async function importEntry(entry: string, generation: number, evaluating: () => void = () => {}): Promise<Record<string, unknown>> {
  const href = entryUrl(entry, generation);
  if (isTypeScript(entry)) {
    const scoped = await typescriptImport();
    evaluating();
    return (await scoped(href, import.meta.url)) as Record<string, unknown>;
  }
  const mark = marker(evaluating);
  try {
    return ((await import(dataModule(`import ${JSON.stringify(mark.url)};\nimport * as entry from ${JSON.stringify(href)};\nexport { entry };`))) as { entry: Record<string, unknown> }).entry;
  } finally {
    mark.done();
  }
}

type EntryModule = Record<string, unknown>;

export interface OrderedEntry {
  entry: string;
  /** Called right before the entry's code runs. */
  evaluating: () => void;
}

/**
 * Imports JavaScript entries as one module graph: Node reads, compiles and links them all at once,
 * then evaluates them one after another in the order given, each announced by its marker right
 * before its code runs. An entry that throws ends that graph; the entries after it are imported as
 * a new one. A graph that cannot be linked at all (a syntax error, a missing export) is given up
 * for importing each entry on its own. Gives each entry's module: itself when the graph evaluated,
 * else a promise settling when its evaluation does (a top-level await included).
 */
export async function importInOrder(entries: OrderedEntry[], generation: number, ranAll: () => void): Promise<Array<EntryModule | Promise<EntryModule>>> {
  const hrefs = entries.map((e) => entryUrl(e.entry, generation));
  const modules: Array<EntryModule | Promise<EntryModule>> = [];
  let from = 0;
  while (from < entries.length) {
    const part = hrefs.slice(from);
    let ran = -1;
    let allStarted: () => void = () => {};
    const started = new Promise<'started'>((resolve) => (allStarted = () => setImmediate(() => resolve('started'))));
    const marks = part.map((_, i) =>
      marker(() => {
        ran = i;
        entries[from + i]!.evaluating();
      }),
    );
    // After the last entry's code: told at once, in the same synchronous run.
    const end = marker(() => {
      ranAll();
      allStarted();
    });
    const graph = moduleGraph(part, marks.map((m) => m.url), end.url);
    const evaluated = nativeImport(graph.url).then(
      (namespace) => namespace as Record<string, Record<string, Record<string, unknown>>>,
      () => 'stopped' as const,
    );
    // Evaluated, stopped by a throw, or every entry's code started (one may await at its top level).
    const outcome = await Promise.race([evaluated, started]);
    for (const m of [...marks, end]) m.done();
    if (outcome === 'stopped') ranAll();
    else if (outcome === 'started') {
      // Each on its own: import() of a module already evaluating settles when its evaluation does.
      modules.push(...part.map((href) => awaited(nativeImport(href) as Promise<EntryModule>)));
      break;
    } else {
      modules.push(...part.map((_, i) => graph.entryModule(outcome, i)));
      break;
    }
    if (ran < 0) {
      modules.push(...part.map((_, i) => importEntry(entries[from + i]!.entry, generation, entries[from + i]!.evaluating)));
      break;
    }
    // The entry whose code ran last threw (importing it again gives its error); the rest have not run.
    // Node's import() here too: a test runner's own would evaluate the entries a second time.
    modules.push(...part.slice(0, ran + 1).map((href) => awaited(nativeImport(href) as Promise<EntryModule>)));
    from += ran + 1;
  }
  return modules;
}

/**
 * The fast path for a known-good set (KnownGood): every entry imported at once with its own import(),
 * no markers, so Node loads half the modules. Top-level code runs in whatever order the files finish
 * loading and is not announced (a plugin that blocks or ends the process then is not named); a throw
 * still rejects that entry's own promise.
 */
export const importAll = (entries: string[], generation: number): Array<Promise<EntryModule>> => entries.map((entry) => awaited(nativeImport(entryUrl(entry, generation)) as Promise<EntryModule>));

/**
 * A module promise the caller awaits later, in registration order: one that rejects meanwhile (a
 * plugin throwing after its top-level await) is not an unhandled rejection, which would end the
 * backend. The caller still gets the rejection when it awaits.
 */
function awaited<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

type GraphNamespace = Record<string, Record<string, Record<string, unknown>>>;

/**
 * The module importing each entry after its marker, then the end marker. Node parses the URL of a
 * module again for every import it resolves from it, so one module naming all n entries would be
 * parsed n times at n entries' length (O(n²): most of loading 100 plugins). The entries are split
 * into about √n groups of about √n, each its own small module; the root re-exports each group.
 */
function moduleGraph(hrefs: string[], markerUrls: string[], endUrl: string): { url: string; entryModule: (namespace: GraphNamespace, i: number) => Record<string, unknown> } {
  const size = Math.max(1, Math.ceil(Math.sqrt(hrefs.length)));
  const groups: string[] = [];
  for (let start = 0; start < hrefs.length; start += size) {
    const members = hrefs.slice(start, start + size);
    const lines = members.map((href, j) => `import ${JSON.stringify(markerUrls[start + j])};\nimport * as e${j} from ${JSON.stringify(href)};`);
    groups.push(graphModule(`${lines.join('\n')}\nexport { ${members.map((_, j) => `e${j}`).join(', ')} };`));
  }
  const root = [...groups.map((url, g) => `export * as g${g} from ${JSON.stringify(url)};`), `import ${JSON.stringify(endUrl)};`].join('\n');
  return { url: graphModule(root), entryModule: (namespace, i) => namespace[`g${Math.floor(i / size)}`]![`e${i % size}`]! };
}

export type RegisterFunction = (ctx: unknown) => unknown;

/** `register` as a named export, or the default export (a function, or an object with `register`). */
export function findRegister(module: Record<string, unknown>): RegisterFunction | null {
  if (typeof module.register === 'function') return module.register as RegisterFunction;
  const fallback = module.default;
  if (typeof fallback === 'function') return fallback as RegisterFunction;
  if (fallback && typeof fallback === 'object' && typeof (fallback as { register?: unknown }).register === 'function') {
    const owner = fallback as { register: RegisterFunction };
    return (ctx) => owner.register(ctx);
  }
  return null;
}
