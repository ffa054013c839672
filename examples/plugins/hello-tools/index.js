// The three user-visible registrations: a tool for the model, a slash command for the user, a skill.

export function register(ctx) {
  // A tool joins the same registry as the built-ins: the model sees it, toolset filters apply.
  // `schema` is an OpenAI function schema; the handler returns a string (objects are JSON-encoded).
  ctx.registerTool({
    name: 'hello',
    toolset: 'hello',
    schema: {
      name: 'hello',
      description: 'Greets someone by name.',
      parameters: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'] },
    },
    handler: (args) => `Hello, ${args.name}!`,
  });

  // `/mycmd some words` in a session: the handler receives the raw text after the command name;
  // what it returns is shown to the user. Description and argument hint appear in /help.
  ctx.registerCommand('mycmd', (rawArgs) => `mycmd says: ${rawArgs.trim() || '(no arguments)'}`, 'Echoes its arguments', '<words>');

  // A skill is a SKILL.md file; it is registered as "hello-tools:greeting" and loaded on request.
  // The path is relative to this plugin's folder (a folder holding SKILL.md works too).
  ctx.registerSkill('greeting', 'skills/greeting/SKILL.md', 'How to greet people warmly');
}
