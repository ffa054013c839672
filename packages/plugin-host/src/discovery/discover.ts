import fs from 'node:fs';
import path from 'node:path';
import type { EntryStamp } from './loadRecord.ts';
import { ManifestError, manifestFromFields, readManifest, type PluginManifest } from './manifest.ts';

export type PluginSource = 'user' | 'project' | 'npm';

/** A plugin found on disk, before the gate. `error` set: it cannot load (bad manifest, no entry). */
export interface DiscoveredPlugin {
  name: string;
  source: PluginSource;
  dir: string;
  manifest: PluginManifest | null;
  /** Absolute path of the entry module. */
  entry: string | null;
  /** The entry file as discovery found it. */
  entryStamp?: EntryStamp;
  error: string | null;
  /** The plugin.yaml it was read from, as it was then (so a later start can skip parsing it again). */
  manifestFile?: ManifestStamp;
  /** A Hermes (Python) plugin: `__init__.py` and no JavaScript entry. Listed, never imported, not a failure. */
  python?: boolean;
}

/** What a Python plugin (a Hermes user's, carried over in their home) is listed with. */
export const PYTHON_PLUGIN = 'not loadable here (Python)';

/** One version of a manifest file. */
export interface ManifestStamp {
  file: string;
  mtimeMs: number;
  size: number;
}

/** A manifest parsed at an earlier start, used again while its file is unchanged. */
export interface KnownManifest extends ManifestStamp {
  manifest: PluginManifest;
}

export interface DiscoveryOptions {
  home: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Extra `node_modules` folders to scan after `$HERMES_HOME/node_modules` (e.g. the application's own). */
  npmRoots?: string[];
  /**
   * plugin.yaml files parsed at an earlier start, by path: one whose modification time and size are
   * unchanged is not parsed again (parsing YAML is most of the cost of discovering many plugins).
   */
  knownManifests?: ReadonlyMap<string, KnownManifest>;
}

const ENTRY_CANDIDATES = ['index.js', 'index.mjs', 'index.ts'];
const MANIFEST_FILES = ['plugin.yaml', 'plugin.yml'];

export function projectPluginsEnabled(env: Record<string, string | undefined>): boolean {
  return ['true', '1', 'yes'].includes((env.HERMES_ENABLE_PROJECT_PLUGINS ?? '').trim().toLowerCase());
}

function subdirs(root: string): string[] {
  try {
    return fs
      .readdirSync(root, { withFileTypes: true })
      .filter((d) => (d.isDirectory() || d.isSymbolicLink()) && !d.name.startsWith('.'))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * The first of `files` that exists (as existsSync says), with its stat: one call where existsSync and
 * then statSync made two (discovery runs this for every plugin at every start).
 */
function firstFile(files: string[]): { file: string; stat: fs.Stats } | null {
  for (const file of files) {
    try {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat) return { file, stat };
    } catch {
      // as existsSync: a path that cannot be stat'ed is not there
    }
  }
  return null;
}

function resolveEntry(dir: string, main: string | undefined): Pick<DiscoveredPlugin, 'entry' | 'error' | 'entryStamp' | 'python'> {
  const found = firstFile(main ? [path.resolve(dir, main)] : ENTRY_CANDIDATES.map((name) => path.join(dir, name)));
  if (found) return { entry: found.file, error: null, entryStamp: { entry: found.file, mtimeMs: found.stat.mtimeMs, size: found.stat.size } };
  if (main) return { entry: null, error: `entry file ${path.resolve(dir, main)} (\`main\`) does not exist` };
  // Hermes's own plugins are Python packages (plugin.yaml + __init__.py): a carried-over home has them.
  if (firstFile([path.join(dir, '__init__.py')])) return { entry: null, error: PYTHON_PLUGIN, python: true };
  return { entry: null, error: `no entry file in ${dir} (expected ${ENTRY_CANDIDATES.join(', ')} or \`main\` in plugin.yaml)` };
}

function fromFolder(dir: string, source: PluginSource, known: ReadonlyMap<string, KnownManifest> | undefined): DiscoveredPlugin | null {
  const found = firstFile(MANIFEST_FILES.map((f) => path.join(dir, f)));
  if (!found) return null; // not a plugin folder
  const manifestFile = found.file;
  const folderName = path.basename(dir);
  try {
    const stamp: ManifestStamp = { file: manifestFile, mtimeMs: found.stat.mtimeMs, size: found.stat.size };
    const earlier = known?.get(manifestFile);
    const manifest = earlier && earlier.mtimeMs === stamp.mtimeMs && earlier.size === stamp.size ? earlier.manifest : readManifest(manifestFile, folderName);
    return { name: manifest.name, source, dir, manifest, manifestFile: stamp, ...resolveEntry(dir, manifest.main) };
  } catch (error) {
    return { name: folderName, source, dir, manifest: null, entry: null, error: (error as Error).message };
  }
}

function fromPackage(dir: string): DiscoveredPlugin | null {
  const file = path.join(dir, 'package.json');
  let pkg: Record<string, unknown>;
  try {
    pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  const hermes = pkg.hermes as { plugin?: unknown } | undefined;
  if (!hermes || typeof hermes !== 'object' || hermes.plugin === undefined) return null;
  const packageName = typeof pkg.name === 'string' ? pkg.name : path.basename(dir);
  const fields = hermes.plugin && typeof hermes.plugin === 'object' ? (hermes.plugin as Record<string, unknown>) : {};
  const fail = (problem: string): never => {
    throw new ManifestError(`${file} (hermes.plugin): ${problem}`);
  };
  try {
    const manifest = manifestFromFields(
      { version: pkg.version, description: pkg.description, main: typeof pkg.main === 'string' ? pkg.main : undefined, ...fields },
      packageName,
      fail,
    );
    return { name: manifest.name, source: 'npm', dir, manifest, ...resolveEntry(dir, manifest.main) };
  } catch (error) {
    return { name: packageName, source: 'npm', dir, manifest: null, entry: null, error: (error as Error).message };
  }
}

function packageDirs(root: string): string[] {
  return subdirs(root).flatMap((name) =>
    name.startsWith('@') ? subdirs(path.join(root, name)).map((sub) => path.join(root, name, sub)) : [path.join(root, name)],
  );
}

/**
 * Every plugin on disk, in PLUGINS.md order: user, project (only with HERMES_ENABLE_PROJECT_PLUGINS),
 * npm. Reads files only, imports nothing, so it can run any number of times. A name met again in a
 * later source is listed with an error: a project folder must not silently replace a user's plugin.
 */
export function discoverPlugins(options: DiscoveryOptions): DiscoveredPlugin[] {
  const found: DiscoveredPlugin[] = [];
  const scanFolders = (root: string, source: PluginSource) => {
    for (const name of subdirs(root)) {
      const plugin = fromFolder(path.join(root, name), source, options.knownManifests);
      if (plugin) found.push(plugin);
    }
  };
  scanFolders(path.join(options.home, 'plugins'), 'user');
  if (projectPluginsEnabled(options.env)) scanFolders(path.join(options.cwd, '.hermes', 'plugins'), 'project');
  for (const root of [path.join(options.home, 'node_modules'), ...(options.npmRoots ?? [])]) {
    for (const dir of packageDirs(root)) {
      const plugin = fromPackage(dir);
      if (plugin) found.push(plugin);
    }
  }
  const seen = new Map<string, DiscoveredPlugin>();
  for (const plugin of found) {
    const first = seen.get(plugin.name);
    if (!first) seen.set(plugin.name, plugin);
    else if (!plugin.error) plugin.error = `the name "${plugin.name}" is already taken by the ${first.source} plugin in ${first.dir}`;
  }
  return found;
}
