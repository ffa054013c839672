import type { CommandInput } from '../commandTypes.ts';

export const toolsCommand: CommandInput = {
  name: 'tools',
  description: 'List the tools the agent can use',
  category: 'Tools & Skills',
  argsHint: '[list]',
  source: 'builtin',
  handler: async (args, ctx) => {
    if (args && args.toLowerCase() !== 'list') {
      return { warning: `/tools ${args}: only listing is supported; enable or disable tools in config.yaml.` };
    }
    return { output: await ctx.listTools() };
  },
};
