// Execution middleware: wraps every tool call. Unlike a hook, middleware sits *around* the real call
// and decides what comes back: whatever the callback returns is the tool's outcome.
//
// `next_call()` runs the rest of the chain (and finally the tool) and resolves its outcome,
// `{ result, error? }`. Call it once; pass new args (`next_call(args)`) to change what the tool gets.
// Fail-open: if this callback throws before next_call, it is skipped; after, the result is kept.

export function register(ctx) {
  ctx.registerMiddleware('tool_execution', async ({ tool_name, next_call }) => {
    const started = performance.now();
    try {
      return await next_call(); // the outcome is returned unchanged: this plugin only measures
    } finally {
      const ms = (performance.now() - started).toFixed(1);
      // ctx.logger writes to $HERMES_HOME/logs/backend.log.
      ctx.logger.info(`timing-middleware: ${tool_name} took ${ms} ms`);
    }
  });
}
