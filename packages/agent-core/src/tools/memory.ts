import { ENTRY_DELIMITER, MEMORY_LIMITS, readMemory, writeMemory, type MemoryState, type MemoryTarget } from './memoryStore.ts';
import type { ToolArgs, ToolDefinition } from './types.ts';

function usage(name: string, state: MemoryState): string {
  return `${name}: ${state.used}/${state.limit} characters, ${state.entries.length} entr${state.entries.length === 1 ? 'y' : 'ies'}`;
}

function text(args: ToolArgs, key: 'content' | 'old_text'): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`"${key}" must be a non-empty string for this action`);
  if (/^\u00a7$/m.test(value)) throw new Error(`"${key}" must not contain a line holding only "§" (it separates entries)`);
  return value.trim();
}

/** The index of the one entry containing `needle`; several or none is an error saying which. */
function find(state: MemoryState, needle: string): number {
  const hits = state.entries.flatMap((entry, i) => (entry.includes(needle) ? [i] : []));
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) throw new Error(`No entry contains "${needle}". Read the memory (action "read") and quote an entry exactly.`);
  throw new Error(`${hits.length} entries contain "${needle}"; quote more of the one you mean.`);
}

export const memoryTool: ToolDefinition = {
  name: 'memory',
  toolset: 'memory',
  description:
    'Long-term memory that persists across sessions. target "memory": facts about the environment, projects and lessons learned ' +
    `(at most ${MEMORY_LIMITS.memory} characters); target "user": who the user is and their preferences (at most ${MEMORY_LIMITS.user}). ` +
    'Actions: read; add (content); replace (old_text identifies the entry, content replaces it); remove (old_text). Keep entries short.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['read', 'add', 'replace', 'remove'] },
      target: { type: 'string', enum: ['memory', 'user'], description: 'Which store (default memory)' },
      content: { type: 'string', description: 'The entry to add, or the replacement' },
      old_text: { type: 'string', description: 'A unique piece of the entry to replace or remove' },
    },
    required: ['action'],
  },
  preview: (args) => `${args.action ?? ''} ${args.target ?? 'memory'}`,
  handler(args, context) {
    const target = (args.target ?? 'memory') as MemoryTarget;
    if (target !== 'memory' && target !== 'user') throw new Error('"target" must be "memory" or "user"');
    const name = target === 'memory' ? 'MEMORY.md' : 'USER.md';
    const state = readMemory(context.home, target);
    switch (args.action) {
      case 'read':
        return `${usage(name, state)}\n${state.entries.join(ENTRY_DELIMITER) || '(empty)'}`;
      case 'add': {
        const content = text(args, 'content');
        if (state.entries.includes(content)) return `Already saved. ${usage(name, state)}`;
        const next = writeMemory(context.home, target, [...state.entries, content], `this entry has ${content.length}`);
        return `Saved. ${usage(name, next)}`;
      }
      case 'replace': {
        const index = find(state, text(args, 'old_text'));
        const content = text(args, 'content');
        const entries = state.entries.map((entry, i) => (i === index ? content : entry));
        const next = writeMemory(context.home, target, entries, `the replacement has ${content.length}`);
        return `Replaced. ${usage(name, next)}`;
      }
      case 'remove': {
        const index = find(state, text(args, 'old_text'));
        const next = writeMemory(context.home, target, state.entries.filter((_, i) => i !== index), 'removing');
        return `Removed. ${usage(name, next)}`;
      }
      default:
        throw new Error(`"action" must be one of read, add, replace, remove (found ${JSON.stringify(args.action)})`);
    }
  },
};
