// What an installed hermes must get from the registry: the packages its bundles leave external
// (scripts/build.mjs), read from esbuild's metafiles, never from a list kept here by hand.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** `better-sqlite3` of `better-sqlite3/lib/x`, `@scope/name` of `@scope/name/sub`. */
export function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(packageNameOf(specifier));

/** The nearest package.json at or above `dir`, parsed, with its folder. */
function owningManifest(file) {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) return { dir, manifest: JSON.parse(readFileSync(candidate, 'utf8')) };
    if (path.dirname(dir) === dir) throw new Error(`${file} belongs to no package (no package.json above it)`);
  }
}

/** The version of `name` that Node would load from `dir`: the first node_modules copy walking up. */
function installedVersion(name, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')).version;
    if (path.dirname(at) === at) return undefined;
  }
}

/**
 * The registry packages the bundles import at run time, as `{ dependencies, optional }`:
 * - `dependencies`: name → the exact version the repository has installed (what the tests ran
 *   against), for each external that the package importing it declares as a dependency;
 * - `optional`: name → who imports it, for each external its importer declares as an optional peer
 *   (Ink's react-devtools-core): never installed, the import is only made on demand.
 * An external declared nowhere, or installed in two versions, is an error naming the importer.
 */
export function runtimeDependencies(metafiles, root) {
  const dependencies = {};
  const optional = {};
  for (const metafile of metafiles) {
    for (const [input, { imports }] of Object.entries(metafile.inputs)) {
      for (const { path: specifier, external } of imports) {
        // A relative path is a file of the package itself (a cached bundle's vendor/ modules, scripts/build.mjs).
        if (!external || isBuiltin(specifier) || specifier.startsWith('.')) continue;
        const name = packageNameOf(specifier);
        const importer = path.resolve(root, input);
        const { dir, manifest } = owningManifest(importer);
        if (manifest.peerDependenciesMeta?.[name]?.optional) {
          optional[name] = manifest.name;
          continue;
        }
        if (!manifest.dependencies?.[name] && !manifest.optionalDependencies?.[name]) {
          throw new Error(`${input} imports ${specifier}, which the bundles keep external, but ${path.join(dir, 'package.json')} does not declare ${name}: add it to its dependencies`);
        }
        const version = installedVersion(name, dir);
        if (!version) throw new Error(`${name} (imported by ${input}) is not installed: run npm install first`);
        if (dependencies[name] && dependencies[name] !== version) {
          throw new Error(`${name} is installed in two versions (${dependencies[name]} and ${version}); the package can carry one`);
        }
        dependencies[name] = version;
      }
    }
  }
  for (const name of Object.keys(dependencies)) delete optional[name];
  return { dependencies: Object.fromEntries(Object.entries(dependencies).sort()), optional };
}
