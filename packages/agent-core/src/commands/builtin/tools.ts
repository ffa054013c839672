import type { CommandHost, CommandInput } from '../commandTypes.ts';

export const toolsCommand: CommandInput = {
  name: 'tools',
  description: 'List the tools the agent can use',
  category: 'Tools & Skills',
  argsHint: '[list]',
  source: 'builtin',
  handler: (args, { host }: { host: Pick<CommandHost, 'listTools'> }) => {
    if (args && args.toLowerCase() !== 'list') {
      return { warning: `/tools ${args}: only listing is supported; enable or disable tools in config.yaml.` };
    }
    return { output: host.listTools() };
  },
};
