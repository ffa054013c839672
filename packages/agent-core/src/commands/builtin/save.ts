import { SAVE_FORMATS, type CommandInput, type SaveFormat } from '../commandTypes.ts';

export const saveCommand: CommandInput = {
  name: 'save',
  description: 'Export the conversation to a file',
  category: 'Session',
  argsHint: '[md|json|html] [filename]',
  source: 'builtin',
  handler: async (args, ctx) => {
    const words = args.split(/\s+/).filter(Boolean);
    const explicit = asFormat(words[0] ?? '');
    const filename = (explicit ? words.slice(1) : words).join(' ') || undefined;
    // Without a format word, the file's extension decides (notes.json → json); markdown otherwise.
    const format = explicit ?? asFormat(filename?.split('.').pop() ?? '') ?? 'md';
    const path = await ctx.save(format, filename);
    return { output: `Saved the conversation to ${path}.` };
  },
};

function asFormat(word: string): SaveFormat | undefined {
  const lower = word.toLowerCase();
  return (SAVE_FORMATS as readonly string[]).includes(lower) ? (lower as SaveFormat) : undefined;
}
