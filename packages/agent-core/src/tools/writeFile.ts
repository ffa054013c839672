import fs from 'node:fs/promises';
import path from 'node:path';
import { readTextIfExists, unifiedDiff } from './fileDiff.ts';
import { displayPath, requireString, resolvePath } from './paths.ts';
import type { ToolArgs, ToolContext, ToolDefinition } from './types.ts';

function target(args: ToolArgs, context: ToolContext): { file: string; shown: string; content: string } {
  const file = resolvePath(context.cwd, requireString(args, 'path'));
  if (typeof args.content !== 'string') throw new Error('"content" must be a string (the whole new file)');
  return { file, shown: displayPath(context.cwd, file), content: args.content };
}

/** Writes a whole file, creating parent directories; the diff shows what changed. */
export const writeFileTool: ToolDefinition = {
  name: 'write_file',
  toolset: 'file',
  description:
    'Write a whole text file, replacing its content (parent directories are created). ' +
    'To change part of an existing file prefer patch, which sends only the changed text.',
  parameters: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path to the file, absolute or relative to the working directory' },
      content: { type: 'string', description: 'The complete new content of the file' },
    },
    required: ['path', 'content'],
  },
  preview: (args) => String(args.path ?? ''),
  approval(args, context) {
    try {
      const { file, shown, content } = target(args, context);
      const before = readTextIfExists(file) ?? '';
      return { kind: 'write', toolName: 'write_file', path: file, diff: unifiedDiff(shown, before, content) };
    } catch {
      // The call will fail in the handler with the reason; there is nothing to approve.
      return null;
    }
  },
  async handler(args, context) {
    const { file, shown, content } = target(args, context);
    const before = readTextIfExists(file);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, content, 'utf8');
    const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
    const size = `${Buffer.byteLength(content)} bytes, ${lines} line${lines === 1 ? '' : 's'}`;
    const verb = before === null ? 'Created' : before === content ? 'Rewrote (unchanged)' : 'Updated';
    const diff = unifiedDiff(shown, before ?? '', content);
    return { result: `${verb} ${shown} (${size}).`, ...(diff ? { inlineDiff: diff } : {}) };
  },
};
