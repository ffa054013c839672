import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { isHomeDotenv, isProcessEnvironment } from '../secrets/secretFiles.ts';
import { walkFiles } from './fileWalk.ts';
import { displayPath, requireString, resolvePath } from './paths.ts';
import type { ToolDefinition } from './types.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;
/** Files larger than this are not searched for content (generated bundles, logs, data). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_LINE_CHARS = 250;

function limitOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_LIMIT;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new Error('"limit" must be a whole number of 1 or more');
  return Math.min(value, MAX_LIMIT);
}

/** Matches a glob against a path relative to the search root; a glob without "/" matches the file name. */
function globMatcher(glob: string): (rel: string) => boolean {
  // Done here rather than with picomatch's `basename` option, which also rewrites globs that have "/".
  const match = picomatch(glob, { dot: true });
  if (glob.includes('/')) return (rel) => match(rel);
  return (rel) => match(rel.slice(rel.lastIndexOf('/') + 1));
}

async function readText(file: string): Promise<string | null> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat || stat.size > MAX_FILE_BYTES) return null;
  const bytes = await fs.readFile(file).catch(() => null);
  if (!bytes || bytes.subarray(0, 8192).includes(0)) return null;
  return bytes.toString('utf8');
}

function capNote(limit: number, what: string): string {
  return `[stopped at ${limit} ${what}; more exist. Narrow the pattern, path or file_glob, or raise limit (at most ${MAX_LIMIT})]`;
}

export const searchFilesTool: ToolDefinition = {
  name: 'search_files',
  toolset: 'search',
  description:
    'Search the project, respecting .gitignore (and skipping .git, node_modules and binary files). ' +
    'target "content" (default): lines matching the regular expression `pattern`, as path:line: text. ' +
    'target "files": paths matching the glob `pattern` (e.g. "*.ts" or "src/**/*.test.ts").',
  parameters: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'A JavaScript regular expression (content) or a glob (files)' },
      target: { type: 'string', enum: ['content', 'files'], description: 'What to search (default content)' },
      path: { type: 'string', description: 'File or directory to search (default: the working directory)' },
      file_glob: { type: 'string', description: 'Only search files matching this glob, e.g. "*.py" (content search)' },
      limit: { type: 'integer', description: `Most results to return (default ${DEFAULT_LIMIT})` },
    },
    required: ['pattern'],
  },
  readOnly: true,
  preview: (args) => [args.pattern, args.path].filter(Boolean).join(' in '),
  async handler(args, context) {
    const pattern = requireString(args, 'pattern');
    const target = args.target ?? 'content';
    if (target !== 'content' && target !== 'files') throw new Error('"target" must be "content" or "files"');
    const root = resolvePath(context.cwd, typeof args.path === 'string' && args.path !== '' ? args.path : '.');
    const limit = limitOf(args.limit);
    const rootIsDir = (await fs.stat(root).catch(() => null))?.isDirectory() ?? false;
    const relToRoot = (file: string) => (rootIsDir ? path.relative(root, file) : path.basename(file)).split(path.sep).join('/');
    const shown = (file: string) => displayPath(context.cwd, file);

    if (target === 'files') {
      const matches = globMatcher(pattern);
      const found: string[] = [];
      for await (const file of walkFiles(root, context.signal)) {
        if (!matches(relToRoot(file))) continue;
        if (found.length === limit) return `${found.join('\n')}\n${capNote(limit, 'files')}`;
        found.push(shown(file));
      }
      return found.length ? found.join('\n') : `No files match "${pattern}" in ${shown(root)}.`;
    }

    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch (error) {
      throw new Error(`"pattern" is not a valid regular expression (${(error as Error).message}); escape special characters like ( [ { . * + ?`);
    }
    const inGlob = typeof args.file_glob === 'string' && args.file_glob !== '' ? globMatcher(args.file_glob) : () => true;
    const hits: string[] = [];
    let skippedSecrets = false;
    let skippedEnvironments = false;
    for await (const file of walkFiles(root, context.signal)) {
      if (!inGlob(relToRoot(file))) continue;
      if (/^\.env$/i.test(path.basename(file)) && isHomeDotenv(file, context.home)) {
        skippedSecrets = true;
        continue;
      }
      // A process's environment holds hermes's keys (its own, for this in-process tool); a match is an oracle for them.
      if (/^environ$/i.test(path.basename(file)) && isProcessEnvironment(file)) {
        skippedEnvironments = true;
        continue;
      }
      const text = await readText(file);
      if (text === null) continue;
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i += 1) {
        if (!regex.test(lines[i]!)) continue;
        if (hits.length === limit) return `${hits.join('\n')}\n${capNote(limit, 'matches')}`;
        const line = lines[i]!.replace(/\r$/, '');
        hits.push(`${shown(file)}:${i + 1}: ${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`);
      }
    }
    const note =
      (skippedSecrets ? `\n[${shown(path.join(context.home, '.env'))} was not searched: it holds hermes's API keys. read_file asks before reading it]` : '') +
      (skippedEnvironments ? "\n[process environments (/proc/<pid>/environ) were not searched: hermes's holds its API keys. read_file asks before reading one]" : '');
    return (hits.length ? hits.join('\n') : `No matches for /${pattern}/ in ${shown(root)}.`) + note;
  },
};
