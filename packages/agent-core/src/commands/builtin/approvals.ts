import { APPROVALS_MODES, type ApprovalsMode, type CommandInput } from '../commandTypes.ts';

export const approvalsCommand: CommandInput = {
  name: 'approvals',
  description: 'Show or set the persistent approval mode',
  category: 'Configuration',
  argsHint: '[manual|smart|off]',
  source: 'builtin',
  handler: async (args, ctx) => {
    const wanted = args.toLowerCase();
    if (wanted && !(APPROVALS_MODES as readonly string[]).includes(wanted)) {
      return { warning: `Unknown approval mode "${args}": use one of ${APPROVALS_MODES.join(', ')}.` };
    }
    const mode = await ctx.approvalsMode((wanted || undefined) as ApprovalsMode | undefined);
    return { output: wanted ? `Approval mode set to ${mode}.` : `Approval mode: ${mode}.` };
  },
};
