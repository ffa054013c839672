import { EXPORT_FORMATS, type ExportFormat } from '../../contract/transcript.ts';
import type { SessionService } from '../../liveSession/sessionService.ts';
import type { CommandInput } from '../commandTypes.ts';

export const saveCommand: CommandInput = {
  name: 'save',
  description: 'Export the conversation to a file',
  category: 'Session',
  argsHint: '[md|json|html] [filename]',
  source: 'builtin',
  handler: (args, { session }: { session: Pick<SessionService, 'export'> }) => {
    const words = args.split(/\s+/).filter(Boolean);
    const explicit = asFormat(words[0] ?? '');
    const filename = (explicit ? words.slice(1) : words).join(' ') || undefined;
    // Without a format word, the file's extension decides (notes.json → json); markdown otherwise.
    const format = explicit ?? asFormat(filename?.split('.').pop() ?? '') ?? 'md';
    const path = session.export(format, filename);
    return { output: `Saved the conversation to ${path}.` };
  },
};

function asFormat(word: string): ExportFormat | undefined {
  const lower = word.toLowerCase();
  return (EXPORT_FORMATS as readonly string[]).includes(lower) ? (lower as ExportFormat) : undefined;
}
