/**
 * `hermes plugins list|enable <name>|disable <name>`, and `hermes <name> …` for a plugin's own
 * command-line command (`cli.exec`). Enabling and disabling edit config.yaml through the backend.
 */
import { ErrorCode } from '@hermes/rpc-server/protocol';
import { errorCode } from '../app/rpcErrors.ts';
import type { Logger } from '../logging/logger.ts';
import type { BackendOptions } from '../rpc/backendCommand.ts';
import type { ChatIo } from './chatCommand.ts';
import { BUILTIN_CLI_COMMANDS } from './args.ts';
import { plainText } from './plainText.ts';
import { CommandFailure, withBackend } from './withBackend.ts';

export const PLUGINS_USAGE = `Usage:
  hermes plugins list
  hermes plugins enable <name>
  hermes plugins disable <name>
`;

const asList = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

export async function runPlugins(argv: string[], backend: BackendOptions, io: ChatIo, logger: Logger): Promise<number> {
  const [verb, name, ...extra] = argv;
  if (verb !== 'list' && verb !== 'enable' && verb !== 'disable') {
    io.stderr.write(`hermes plugins: ${verb ? `unknown action "${verb}"` : 'give an action'}\n${PLUGINS_USAGE}`);
    return 2;
  }
  if (verb !== 'list' && (!name || extra.length > 0)) {
    io.stderr.write(`hermes plugins ${verb}: give exactly one plugin name\n${PLUGINS_USAGE}`);
    return 2;
  }
  // A backend that imports no plugin: these commands must work while a plugin hangs or kills its process.
  return withBackend('hermes plugins', { ...backend, discoverPluginsOnly: true }, io, logger, async (client) => {
    const { plugins } = await client.request('plugins.list', {});
    if (verb === 'list') {
      if (plugins.length === 0) io.stdout.write('No plugins found. Put one in $HERMES_HOME/plugins/<name>/ (see docs/plugins.md).\n');
      for (const p of plugins) {
        // The gate's refusal ("disabled in config") and a Python plugin are reported in the error field
        // too; neither is a failure. A backend older than `failed` is judged by the refusal's words.
        const refusedByConfig = !p.error || p.error.startsWith('disabled') || p.error.startsWith('not listed in plugins.enabled');
        const state = (p.failed ?? !refusedByConfig) ? 'error' : p.enabled ? 'enabled' : 'disabled';
        const counts =
          p.counts_from === 'unknown' ? 'not loaded yet' : `tools ${p.tools}, hooks ${p.hooks}, middleware ${p.middleware}, commands ${p.commands}`;
        const missing = p.missing_env?.length ? `\tmissing env: ${p.missing_env.map((m) => (m.description ? `${m.name} (${m.description})` : m.name)).join(', ')}` : '';
        // Names, versions and errors come from a plugin's own files: never written to the terminal raw.
        io.stdout.write(plainText(`${p.name}\t${p.version || '-'}\t${p.source}\t${state}\t${counts}${p.error ? `\t${p.error.replace(/\t/g, ' ')}` : ''}${missing}\n`));
      }
      return 0;
    }
    if (!plugins.some((p) => p.name === name)) {
      throw new CommandFailure(`no plugin is named "${name}" (known: ${plugins.map((p) => p.name).join(', ') || 'none'})`, 1);
    }
    const disabled = asList((await client.request('config.get', { key: 'plugins.disabled' })).value);
    const enabledValue = (await client.request('config.get', { key: 'plugins.enabled' })).value;
    if (verb === 'disable') {
      if (!disabled.includes(name!)) await client.request('config.set', { key: 'plugins.disabled', value: [...disabled, name] });
    } else {
      if (disabled.includes(name!)) {
        const rest = disabled.filter((n) => n !== name);
        await client.request('config.set', { key: 'plugins.disabled', value: rest.length ? rest : null });
      }
      // With an allow-list present, enabling means being on it.
      const enabled = asList(enabledValue);
      if (Array.isArray(enabledValue) && !enabled.includes(name!)) {
        await client.request('config.set', { key: 'plugins.enabled', value: [...enabled, name] });
      }
    }
    io.stdout.write(`${name} ${verb}d in config.yaml; it applies at the next start of hermes (or /reload-plugins).\n`);
    return 0;
  });
}

/** `hermes <name> …`: a command a plugin registered with registerCliCommand. */
export async function runPluginCli(argv: string[], backend: BackendOptions, io: ChatIo, logger: Logger): Promise<number> {
  return withBackend('hermes', backend, io, logger, async (client) => {
    try {
      const result = await client.request('cli.exec', { argv });
      if (result.output) io.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
      return result.code;
    } catch (error) {
      if (errorCode(error) === ErrorCode.NotACommand || errorCode(error) === ErrorCode.UsageError) {
        throw new CommandFailure(`unknown command "${argv[0]}". Commands: ${BUILTIN_CLI_COMMANDS.join(', ')}; or run \`hermes --tui\`.`, 2);
      }
      throw error;
    }
  });
}
