// Execution middleware: wraps every tool call. Unlike a hook, middleware sits *around* the real call
// and decides what comes back: whatever the callback returns is the tool result the model sees.
//
// The seed's contract: `next_call(args)` runs the rest of the chain (and finally the tool) and
// resolves to the tool result, the string the model sees. Call it once; pass changed args to change
// what the tool gets. Return the result (a string; another value is sent as JSON; returning nothing
// keeps the result). Fail-open: if this callback throws before next_call, it is skipped; after, the
// result is kept. A fault is logged once, with its stack, and never fails the turn.

export function register(ctx) {
  ctx.registerMiddleware('tool_execution', async ({ tool_name, args, next_call }) => {
    const started = performance.now();
    const result = await next_call(args);
    const ms = (performance.now() - started).toFixed(1);
    // ctx.logger writes to $HERMES_HOME/logs/backend.log.
    ctx.logger.info(`timing-middleware: ${tool_name} took ${ms} ms`);
    return result; // unchanged: this plugin only measures
  });
}
