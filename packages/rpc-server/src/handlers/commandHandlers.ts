import {
  CommandFailedError,
  completePath,
  completeSlash,
  HermesError,
  UsageError,
} from '@hermes/agent-core';
import { commandHost } from '../commands/commandHost.ts';
import { ErrorCode } from '../protocol/index.ts';
import { reloadPlugins } from '../server/plugins.ts';
import type { HandlerContext, HandlerTable } from './context.ts';

export function commandHandlers(ctx: HandlerContext): HandlerTable {
  return {
    'commands.catalog': () => {
      return { commands: ctx.commands.catalog() };
    },

    'complete.slash': ({ text }) => {
      return completeSlash(text, ctx.commands.catalog());
    },

    'complete.path': async (params) => {
      return completePath(params.word, params.cwd ?? process.cwd());
    },

    /** Runs even while a turn is busy: /stop must reach a streaming turn. */
    'slash.exec': async (params) => {
      const live = ctx.sessions.get(params.session_id);
      const text = params.command.trim().startsWith('/') ? params.command.trim() : `/${params.command.trim()}`;
      try {
        return await ctx.commands.dispatch(text, { session: live.service, host: commandHost(ctx, live, () => reloadPlugins(ctx)) });
      } catch (error) {
        // A command that ran and failed is shown as a warning; unknown (4018, 4004 when empty) and
        // busy (4009) commands are answered as errors with their own codes.
        if (error instanceof CommandFailedError) {
          // A user's mistake (4xxx) is the warning alone; a bug, a plugin's failure or a storage/model failure is logged too.
          if (error.code < 4000 || error.code >= 5000) {
            const cause = error.cause instanceof Error ? (error.cause.stack ?? String(error.cause)) : String(error.cause);
            const who = error.source === 'builtin' ? `/${error.command}` : `/${error.command} (plugin ${error.source})`;
            ctx.logger.error('%s failed: %s', who, cause);
          }
          return { warning: error.message };
        }
        throw error;
      }
    },

    'plugins.list': () => ({
      plugins: ctx.plugins.list().map((p) => ({
        name: p.name,
        key: p.key,
        version: p.version ?? '',
        source: p.source,
        enabled: p.enabled,
        tools: p.tools,
        hooks: p.hooks,
        middleware: p.middleware,
        commands: p.commands,
        error: p.error,
        failed: p.failed,
        ...(p.missingEnv.length ? { missing_env: p.missingEnv } : {}),
        ...(p.countsFrom ? { counts_from: p.countsFrom } : {}),
      })),
    }),

    /** `hermes <name> …`: a plugin's command-line command. Its output is what it returns or prints. */
    'cli.exec': async ({ argv }) => {
      const [name, ...rest] = argv;
      if (!name?.trim()) throw new UsageError('cli.exec needs a command: `argv` starts with the plugin command\'s name.');
      const command = ctx.plugins.cliCommands.find((c) => c.name === name);
      if (!command) {
        const known = ctx.plugins.cliCommands.map((c) => c.name);
        throw new HermesError(ErrorCode.NotACommand, `"${name ?? ''}" is not a plugin command.${known.length ? ` Known: ${known.join(', ')}.` : ''}`);
      }
      try {
        const output = await command.handler(rest);
        return { code: typeof output === 'number' ? output : 0, output: typeof output === 'string' ? output : '' };
      } catch (error) {
        // The plugin's failure is the command's result (exit code 1), as a program's would be; the log keeps the stack.
        ctx.logger.warn('cli command %s failed: %s', name, error instanceof Error ? (error.stack ?? error.message) : String(error));
        return { code: 1, output: `${name} failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  };
}
