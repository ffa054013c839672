import fs from 'node:fs/promises';
import { requireString, resolvePath } from './paths.ts';
import type { ToolDefinition } from './types.ts';

const MAX_BYTES = 256 * 1024;
const DEFAULT_LIMIT = 2000;

function positiveInt(value: unknown, field: string, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw new Error(`"${field}" must be a whole number of 1 or more`);
  return n;
}

/** Reads a text file, numbered lines, optionally a range of them. */
export const readFileTool: ToolDefinition = {
  name: 'read_file',
  toolset: 'file',
  description:
    'Read a text file. Returns numbered lines ("N|text"). Use offset (1-based first line) and limit (line count) for large files.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path to the file, absolute or relative to the working directory' },
      offset: { type: 'integer', description: 'First line to read (1-based, default 1)' },
      limit: { type: 'integer', description: `Number of lines to read (default ${DEFAULT_LIMIT})` },
    },
    required: ['path'],
  },
  readOnly: true,
  preview: (args) => String(args.path ?? ''),
  // The gate asks before `$HERMES_HOME/.env` (API keys) is read; other files need no approval.
  approval: (args, context) =>
    typeof args.path === 'string' && args.path.trim() !== '' ? { kind: 'read', toolName: 'read_file', path: resolvePath(context.cwd, args.path) } : null,
  async handler(args, context) {
    const file = resolvePath(context.cwd, requireString(args, 'path'));
    const offset = positiveInt(args.offset, 'offset', 1);
    const limit = positiveInt(args.limit, 'limit', DEFAULT_LIMIT);
    const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error(`No such file: ${file}`);
      throw new Error(`Cannot read ${file}: ${error.message}`);
    });
    if (stat.isDirectory()) throw new Error(`${file} is a directory, not a file`);
    const handle = await fs.open(file, 'r');
    let bytes: Buffer;
    try {
      const length = Math.min(stat.size, MAX_BYTES);
      bytes = Buffer.alloc(length);
      await handle.read(bytes, 0, length, 0);
    } finally {
      await handle.close();
    }
    context.signal.throwIfAborted();
    if (bytes.subarray(0, 8192).includes(0)) {
      throw new Error(`${file} looks like a binary file (${stat.size} bytes); read_file only reads text`);
    }
    let text = bytes.toString('utf8');
    const truncated = stat.size > MAX_BYTES;
    if (truncated) text = text.slice(0, text.lastIndexOf('\n') + 1);
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const slice = lines.slice(offset - 1, offset - 1 + limit);
    const body = slice.map((line, i) => `${offset + i}|${line}`).join('\n');
    const notes: string[] = [];
    if (slice.length === 0) notes.push(`[file has ${lines.length} lines; offset ${offset} is past the end]`);
    else if (offset - 1 + limit < lines.length) {
      notes.push(`[lines ${offset}-${offset + slice.length - 1} of ${lines.length}; use offset to read more]`);
    }
    if (truncated) notes.push(`[only the first ${MAX_BYTES} bytes of ${stat.size} were read]`);
    return [body, ...notes].filter(Boolean).join('\n');
  },
};
