/**
 * The backend spawned by the launcher (scripts/bundling/codeCache/launchTui.ts) before the TUI's own
 * bundle loads: the backend's boot is the longest wait of a start, and loading the bundle (~50 ms on a
 * slow machine) no longer comes before it. Only for a start that opens the TUI with a backend; main.tsx
 * takes it over if the options it works out are the same, and otherwise stops it and spawns its own.
 */
import { backendOptionsOf, parseCliArgs, type CliOptions } from '../cli/args.ts';
import { isInteractiveTerminal } from '../cli/terminal.ts';
import { backendCommand, type BackendOptions } from './backendCommand.ts';
import { spawnBackend, type SpawnedBackend } from './backendSpawn.ts';

const HANDOVER = Symbol.for('hermes.tui.earlyBackend');

interface EarlyBackend {
  options: BackendOptions;
  spawned: SpawnedBackend;
}

/** The backend options of a start that opens the TUI (not --help, a subcommand, --demo or a usage error), else null. */
export function tuiBackendOptions(options: CliOptions): BackendOptions | null {
  if (options.help || options.version || options.demo || options.positionals.length > 0) return null;
  if (options.resume !== undefined && (options.continueLatest || !options.resume.trim())) return null;
  return backendOptionsOf(options);
}

/** Spawns the backend now if `argv` opens the TUI on a terminal (as main.tsx decides); what goes wrong is left for main.tsx to meet and report. */
export function spawnEarly(argv: string[]): void {
  if (!isInteractiveTerminal()) return;
  try {
    const options = tuiBackendOptions(parseCliArgs(argv));
    if (!options) return;
    handOver(options, spawnBackend(backendCommand(options)));
  } catch {
    // A usage error or a backend that cannot be found: main.tsx says so.
  }
}

/** Leaves a spawned backend for `takeEarlyBackend`. */
export function handOver(options: BackendOptions, spawned: SpawnedBackend): void {
  const early: EarlyBackend = { options, spawned };
  (globalThis as Record<symbol, unknown>)[HANDOVER] = early;
}

/** The backend spawned early for these options, taken over once; one spawned for others is stopped. */
export function takeEarlyBackend(options: BackendOptions): SpawnedBackend | undefined {
  const early = (globalThis as Record<symbol, unknown>)[HANDOVER] as EarlyBackend | undefined;
  if (!early) return undefined;
  delete (globalThis as Record<symbol, unknown>)[HANDOVER];
  const same = (Object.keys({ ...early.options, ...options }) as Array<keyof BackendOptions>).every((key) => early.options[key] === options[key]);
  if (same) return early.spawned;
  early.spawned.child.stdin.end();
  return undefined;
}
