// A policy plugin: one `pre_tool_call` hook that vetoes dangerous shell commands.
//
// The hook runs before every tool call, after `tool_request` middleware has (maybe) rewritten the
// arguments, so it judges exactly what would run. Returning `{ action: 'block', message }` stops the
// call: the tool does not run and `message` becomes the tool result the model reads.
// Returning null (or nothing) lets the call go on.

// `rm -rf`, `rm -fr`, `rm -r -f`, `rm --recursive --force` … kept simple on purpose.
const RM_RF = /\brm\s+(-[a-z]*r[a-z]*f[a-z]*|-[a-z]*f[a-z]*r[a-z]*|-r\s+-f|-f\s+-r|--recursive\s+--force|--force\s+--recursive)\b/i;

export function register(ctx) {
  ctx.registerHook('pre_tool_call', ({ tool_name, args }) => {
    if (tool_name !== 'terminal') return null;
    const command = String(args?.command ?? '');
    if (!RM_RF.test(command)) return null;
    return {
      action: 'block',
      message: `Blocked by policy-no-rm-rf: "${command}" deletes recursively. Remove specific files instead, or ask the user.`,
    };
  });
}
