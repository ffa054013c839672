import type { ToolDefinition } from './types.ts';

export const skillsListTool: ToolDefinition = {
  name: 'skills_list',
  toolset: 'skills',
  description:
    'List the available skills: instructions for specific tasks, written by the user ($HERMES_HOME/skills) or offered by ' +
    'plugins (named "<plugin>:<skill>"). Load one with skill_view before doing a task it covers.',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  handler(_args, context) {
    if (!context.skills) throw new Error('Skills are unavailable here: this run has no skill catalog.');
    const skills = context.skills.list();
    if (skills.length === 0) return 'No skills are installed. User skills go in $HERMES_HOME/skills/<name>/SKILL.md.';
    const lines = skills.map((s) => {
      const origin = s.plugin ? ` [plugin ${s.plugin}]` : '';
      return `- ${s.name}${origin}${s.description ? `: ${s.description}` : ''}`;
    });
    return `${skills.length} skill${skills.length === 1 ? '' : 's'} (load one with skill_view):\n${lines.join('\n')}`;
  },
};
