/**
 * What happened to the code cache on this start (runCached.ts publishes it before the bundle runs),
 * read by the bundle's own code for its log.
 */

export interface CodeCacheStatus {
  /** `hit`: V8 took the cache; `miss`: none yet; `rejected`: V8 refused it (flags, version, damage); `off`: not used on this start. */
  state: 'hit' | 'miss' | 'rejected' | 'off';
  /** The cache file (absent when no directory could be used). */
  file?: string;
  /** Why the cache is off, or why writing it failed. */
  problem?: string;
  /** Set once a new cache was written on this run. */
  saved?: boolean;
  /** The bundle's own CommonJS modules loaded so far (its vendored packages), by the specifier it imports. */
  modules?: Record<string, CodeCacheStatus>;
}

const KEY = Symbol.for('hermes.codeCacheStatus');

export function publishCodeCacheStatus(status: CodeCacheStatus): void {
  (globalThis as Record<symbol, unknown>)[KEY] = status;
}

/** The status of this process's cache; undefined when not started through it (sources under tsx, tests). */
export function codeCacheStatus(): CodeCacheStatus | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as CodeCacheStatus | undefined;
}

/** One line for a log. */
export function describeCodeCache(status: CodeCacheStatus): string {
  return `code cache ${status.state}${status.file ? ` (${status.file})` : ''}${status.problem ? `: ${status.problem}` : ''}`;
}
