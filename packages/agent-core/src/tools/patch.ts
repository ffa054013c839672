import fs from 'node:fs/promises';
import { readTextIfExists, unifiedDiff } from './fileDiff.ts';
import { displayPath, requireString, resolvePath } from './paths.ts';
import type { ToolArgs, ToolContext, ToolDefinition } from './types.ts';

export type PatchPlan = { ok: true; after: string; count: number } | { ok: false; error: string };

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Pure: what the file becomes, or why the replacement cannot be made. */
export function planPatch(shown: string, before: string, oldString: string, newString: string, replaceAll: boolean): PatchPlan {
  if (oldString === '') return { ok: false, error: '"old_string" must not be empty; to write a new file use write_file' };
  if (oldString === newString) return { ok: false, error: '"old_string" and "new_string" are the same; nothing would change' };
  const starts: number[] = [];
  for (let i = before.indexOf(oldString); i !== -1; i = before.indexOf(oldString, i + oldString.length)) starts.push(i);
  if (starts.length === 0) {
    return {
      ok: false,
      error:
        `old_string was not found in ${shown}. The file may have changed, or whitespace or indentation differs: ` +
        're-read the file with read_file and copy the exact text.',
    };
  }
  if (starts.length > 1 && !replaceAll) {
    const lines = starts.map((i) => lineAt(before, i)).join(', ');
    return {
      ok: false,
      error:
        `old_string matches ${starts.length} places in ${shown} (lines ${lines}). ` +
        'Include more surrounding text to make it unique, or pass replace_all: true to replace every one.',
    };
  }
  // Built by slicing, not String.replace, so `$&` and friends in new_string stay literal.
  let after = '';
  let from = 0;
  for (const start of starts) {
    after += before.slice(from, start) + newString;
    from = start + oldString.length;
  }
  after += before.slice(from);
  return { ok: true, after, count: starts.length };
}

function plan(args: ToolArgs, context: ToolContext) {
  const file = resolvePath(context.cwd, requireString(args, 'path'));
  const shown = displayPath(context.cwd, file);
  if (typeof args.old_string !== 'string') throw new Error('"old_string" must be a string');
  if (typeof args.new_string !== 'string') throw new Error('"new_string" must be a string');
  const before = readTextIfExists(file);
  if (before === null) throw new Error(`No such file: ${file}. To create a file use write_file.`);
  const result = planPatch(shown, before, args.old_string, args.new_string, args.replace_all === true);
  return { file, shown, before, result };
}

/** Replaces exact text in a file; the diff goes to the approval gate and the UI. */
export const patchTool: ToolDefinition = {
  name: 'patch',
  toolset: 'file',
  description:
    'Edit a file by replacing an exact piece of text. old_string must match the file exactly (whitespace included) ' +
    'and only once, unless replace_all is true. Returns a unified diff of the change.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path to the file, absolute or relative to the working directory' },
      old_string: { type: 'string', description: 'The exact text to replace, with enough context to be unique' },
      new_string: { type: 'string', description: 'The text to put in its place' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (default false)' },
    },
    required: ['path', 'old_string', 'new_string'],
  },
  preview: (args) => String(args.path ?? ''),
  approval(args, context) {
    try {
      const { file, shown, before, result } = plan(args, context);
      if (!result.ok) return null;
      return { kind: 'write', toolName: 'patch', path: file, diff: unifiedDiff(shown, before, result.after) };
    } catch {
      // The handler will fail with the reason; there is nothing to approve.
      return null;
    }
  },
  async handler(args, context) {
    const { file, shown, before, result } = plan(args, context);
    if (!result.ok) throw new Error(result.error);
    await fs.writeFile(file, result.after, 'utf8');
    const what = result.count === 1 ? '1 occurrence' : `${result.count} occurrences`;
    const diff = unifiedDiff(shown, before, result.after);
    // The model sees the diff too, so it can check the edit without re-reading the file.
    return { result: `Replaced ${what} in ${shown}.\n${diff}`, inlineDiff: diff };
  },
};
