import type { DiscoveredPlugin } from '../discovery/discover.ts';
import { entryStamp } from '../discovery/loadRecord.ts';
import type { LoadingPlugin } from './loadGuard.ts';

/** Resolves `run()`, or rejects with `message` after `ms` (the run is abandoned, not stopped). */
export function withDeadline<T>(run: Promise<T>, ms: number, message: string): Promise<T> {
  if (!(ms > 0)) return run;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  run.catch(() => {}); // an abandoned run that fails later is not an unhandled rejection
  return Promise.race([run, deadline]).finally(() => clearTimeout(timer));
}

export const timedOut = (plugin: string, limitS: number) =>
  `plugin ${plugin}: loading and register() did not finish within ${limitS} s (plugins.register_timeout); the plugin is disabled`;

/** How a plugin's import ended, and how long it took (it counts against the register time limit). */
export type Imported = ({ module: Record<string, unknown> } | { error: unknown }) & { ms: number; loading: LoadingPlugin };

export const loadingOf = (plugin: DiscoveredPlugin): LoadingPlugin => ({ name: plugin.name, dir: plugin.dir, entry: plugin.entry!, stamp: plugin.entryStamp ?? entryStamp(plugin.entry!) });

/**
 * A plugin's import outcome, given up past the register time limit (counted from `started`). A module
 * already evaluated needs no deadline (no timer, no promise: 100 plugins' worth of them was a cost).
 */
export function settled(loading: LoadingPlugin, importing: Record<string, unknown> | Promise<Record<string, unknown>>, started: number, limitS: number): Imported | Promise<Imported> {
  if (!(importing instanceof Promise)) return { module: importing, ms: performance.now() - started, loading };
  const left = limitS > 0 ? Math.max(1, limitS * 1000 - (performance.now() - started)) : 0;
  return withDeadline(importing, left, timedOut(loading.name, limitS)).then(
    (module) => ({ module, ms: performance.now() - started, loading }),
    (error: unknown) => ({ error, ms: performance.now() - started, loading }),
  );
}

/**
 * The outcomes of imports started together at `started`, under one timer (not one per plugin): those
 * not settled by the register time limit are given up on, each with its own time-out error.
 */
export async function settledTogether(loadings: LoadingPlugin[], importing: Array<Promise<Record<string, unknown>>>, started: number, limitS: number): Promise<Imported[]> {
  const outcomes: Array<Imported | undefined> = [];
  const all = Promise.all(
    importing.map((promise, i) =>
      promise.then(
        (module) => (outcomes[i] = { module, ms: performance.now() - started, loading: loadings[i]! }),
        (error: unknown) => (outcomes[i] = { error, ms: performance.now() - started, loading: loadings[i]! }),
      ),
    ),
  );
  await withDeadline(all, limitS * 1000, 'plugins.register_timeout').catch(() => undefined);
  return loadings.map((loading, i) => outcomes[i] ?? { error: new Error(timedOut(loading.name, limitS)), ms: performance.now() - started, loading });
}

export function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

