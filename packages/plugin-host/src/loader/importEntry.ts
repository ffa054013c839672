import path from 'node:path';
import { pathToFileURL } from 'node:url';

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
 * Plugins are imported in parallel, so which plugin's code is running is known only if each entry
 * announces itself: it is imported through a wrapper whose first import (a marker module) calls back
 * synchronously right before the entry's own code (its imports included) is evaluated.
 */
const EVALUATING = Symbol.for('hermes.plugin-host.evaluating');
const evaluatingCallbacks = new Map<string, () => void>();
(globalThis as Record<symbol, unknown>)[EVALUATING] = (href: string) => evaluatingCallbacks.get(href)?.();

const dataModule = (source: string) => `data:text/javascript,${encodeURIComponent(source)}`;

/**
 * Imports a plugin entry; `generation` > 0 bypasses the module cache so a reload sees edited files.
 * `evaluating` is called right before the entry's code runs (for a TypeScript entry, when its import
 * starts: the caller imports those one at a time).
 */
export async function importEntry(entry: string, generation: number, evaluating: () => void = () => {}): Promise<Record<string, unknown>> {
  const url = pathToFileURL(entry);
  if (generation > 0) url.searchParams.set('hermes_reload', String(generation));
  if (isTypeScript(entry)) {
    const scoped = await typescriptImport();
    evaluating();
    return (await scoped(url.href, import.meta.url)) as Record<string, unknown>;
  }
  // The marker's source names the entry's URL, so each entry (and each reload of it) has its own marker.
  const marker = dataModule(`globalThis[Symbol.for(${JSON.stringify(EVALUATING.description)})](${JSON.stringify(url.href)});`);
  const wrapper = dataModule(`import ${JSON.stringify(marker)};\nimport * as entry from ${JSON.stringify(url.href)};\nexport { entry };`);
  evaluatingCallbacks.set(url.href, evaluating);
  try {
    return ((await import(wrapper)) as { entry: Record<string, unknown> }).entry;
  } finally {
    evaluatingCallbacks.delete(url.href);
  }
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
