import fs from 'node:fs';
import { ErrorCode, HermesError } from '@hermes/agent-core';
import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';

export interface RequiredEnv {
  name: string;
  description?: string;
}

/** `plugin.yaml` (or the `hermes.plugin` field of a package.json) as PLUGINS.md defines it. */
export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  main?: string;
  requiresEnv: RequiredEnv[];
  providesTools: string[];
  providesHooks: string[];
}

/** A manifest that cannot be used; the message names the file and, where known, the line (the user's to fix: 4004). */
export class ManifestError extends HermesError {
  override name = 'ManifestError';
  constructor(message: string) {
    super(ErrorCode.UsageError, message);
  }
}

type Fail = (problem: string, node?: Node | null) => never;

function optionalString(value: unknown, field: string, node: Node | null, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fail(`\`${field}\` must be a string`, node);
}

function stringList(value: unknown, field: string, node: Node | null, fail: Fail): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return fail(`\`${field}\` must be a list of strings`, node);
  return value;
}

function requiredEnv(value: unknown, node: Node | null, fail: Fail): RequiredEnv[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail('`requires_env` must be a list', node);
  return value.map((item) => {
    if (typeof item === 'string' && item.trim()) return { name: item.trim() };
    if (item && typeof item === 'object' && typeof (item as RequiredEnv).name === 'string') {
      const { name, description } = item as RequiredEnv;
      return typeof description === 'string' ? { name, description } : { name };
    }
    return fail('each `requires_env` item must be a name or {name, description}', node);
  });
}

/** Letters, digits, `.`, `_`, `-`; an npm package's own name may carry its `@scope/`. */
const PLUGIN_NAME = /^(?:@[A-Za-z0-9][A-Za-z0-9._-]{0,63}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Builds a manifest from already-parsed fields; `fail` reports a problem (with the node's line when it has one). */
export function manifestFromFields(fields: Record<string, unknown>, defaultName: string, fail: Fail, nodeOf: (key: string) => Node | null = () => null): PluginManifest {
  const name = optionalString(fields.name, 'name', nodeOf('name'), fail)?.trim() || defaultName;
  // A name is shown in listings, logs and config lists, and prefixes skills (`plugin:skill`).
  if (!PLUGIN_NAME.test(name)) {
    fail(`the plugin name ${JSON.stringify(name)} may hold only letters, digits, '.', '_' and '-', starting with a letter or digit (an npm package's name may have its @scope/): set \`name:\``, nodeOf('name'));
  }
  const manifest: PluginManifest = {
    name,
    requiresEnv: requiredEnv(fields.requires_env, nodeOf('requires_env'), fail),
    providesTools: stringList(fields.provides_tools, 'provides_tools', nodeOf('provides_tools'), fail),
    providesHooks: stringList(fields.provides_hooks, 'provides_hooks', nodeOf('provides_hooks'), fail),
  };
  for (const field of ['version', 'description', 'author', 'main'] as const) {
    const value = optionalString(fields[field], field, nodeOf(field), fail);
    if (value !== undefined) manifest[field] = value;
  }
  return manifest;
}

/** Parses a `plugin.yaml` text. Throws `ManifestError` naming `file` and the line. */
export function parseManifest(text: string, file: string, defaultName: string): PluginManifest {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    throw new ManifestError(`${file} line ${lineOf(error.pos[0])}: ${error.message.split('\n')[0]}`);
  }
  const fail: Fail = (problem, node) => {
    const line = node?.range ? ` line ${lineOf(node.range[0])}` : '';
    throw new ManifestError(`${file}${line}: ${problem}`);
  };
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return manifestFromFields({}, defaultName, fail);
  if (!isMap(root)) return fail('the manifest must be a mapping of fields (name, version, main, …)', root);
  const nodeOf = (key: string) => (doc.get(key, true) as Node | undefined) ?? null;
  const fields = doc.toJS() as Record<string, unknown>;
  // `version: 1.10` must stay "1.10", not become the number 1.1.
  const version = nodeOf('version');
  if (isScalar(version) && typeof version.value === 'number' && version.range) fields.version = text.slice(version.range[0], version.range[1]).trim();
  return manifestFromFields(fields, defaultName, fail, nodeOf);
}

export function readManifest(file: string, defaultName: string): PluginManifest {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ManifestError(`${file}: cannot be read (${(error as Error).message})`);
  }
  return parseManifest(text, file, defaultName);
}
