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

/** Imports a plugin entry; `generation` > 0 bypasses the module cache so a reload sees edited files. */
export async function importEntry(entry: string, generation: number): Promise<Record<string, unknown>> {
  const url = pathToFileURL(entry);
  if (generation > 0) url.searchParams.set('hermes_reload', String(generation));
  if (TS_EXTENSIONS.has(path.extname(entry))) {
    const scoped = await typescriptImport();
    return (await scoped(url.href, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(url.href)) as Record<string, unknown>;
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
