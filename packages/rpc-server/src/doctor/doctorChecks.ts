/**
 * The backend's part of `hermes doctor` (`doctor.check`): what only the backend can see — the SQLite
 * addon and state.db, config.yaml as loaded, the model it resolved and whether its key is there (never
 * the key), plugins as loaded, MCP servers (each given `timeoutMs` to connect), and on request one
 * model round trip. Node and $HERMES_HOME permissions are checked by the CLI before it starts this
 * process (a backend that cannot start reports nothing).
 */
import path from 'node:path';
import { findPreset, formatProblem, type ConfigProblem, type HermesRuntime } from '@hermes/agent-core';
import { describeMissingEnv, PYTHON_PLUGIN, type PluginInfo } from '@hermes/plugin-host';
import type { DoctorCheck } from '../protocol/shapes.ts';
import { modelRoundTrip } from './modelRoundTrip.ts';

export interface DoctorInputs {
  runtime: HermesRuntime;
  plugins: PluginInfo[];
  /** Whether the backend imported the plugins (a discovery-only backend lists them from disk). */
  pluginsLoaded: boolean;
}

export async function doctorChecks(inputs: DoctorInputs, options: { online: boolean; timeoutMs: number }): Promise<DoctorCheck[]> {
  const { runtime } = inputs;
  const checks = [sqliteCheck(runtime), ...configChecks(runtime), modelCheck(runtime), ...pluginChecks(inputs), ...(await mcpChecks(runtime, options.timeoutMs))];
  if (options.online) checks.push(await onlineCheck(runtime, options.timeoutMs));
  return checks;
}

function sqliteCheck(runtime: HermesRuntime): DoctorCheck {
  try {
    // The store opened state.db at start (or the backend would not be running); a query proves the addon works.
    const { version } = runtime.store.db.prepare('SELECT sqlite_version() AS version').get() as { version: string };
    return { name: 'sqlite', status: 'ok', detail: `SQLite ${version} (better-sqlite3 addon loaded); ${runtime.store.file} open` };
  } catch (error) {
    return {
      name: 'sqlite',
      status: 'fail',
      detail: `${runtime.store.file}: ${(error as Error).message}`,
      fix: 'reinstall hermes so its SQLite addon matches this Node (npm rebuild better-sqlite3 in a repository checkout)',
    };
  }
}

/** A problem's message split into what is wrong and the fix it names (`… Fix: …`), or a fix pointing at the line. */
function problemCheck(problem: ConfigProblem): DoctorCheck {
  const text = formatProblem(problem);
  const where = `${problem.file}${problem.line ? ` line ${problem.line}` : ''}`;
  const name = path.basename(problem.file);
  if (problem.kind === 'unknown_key') return { name, status: 'warn', detail: text, fix: `rename or remove the key at ${where}` };
  // loadConfig's messages end with their fix: "… Fix: chmod …" or "… Fix that line (…)".
  const split = /^(.*?\.) Fix(:?) (.*)$/s.exec(text);
  if (split) return { name, status: 'fail', detail: split[1]!, fix: split[2] ? split[3]!.replace(/^./, (c) => c.toLowerCase()) : `fix ${split[3]}` };
  return { name, status: 'fail', detail: text, fix: `correct the value at ${where} (docs: README, "Configuration")` };
}

function configChecks(runtime: HermesRuntime): DoctorCheck[] {
  const { loaded } = runtime;
  const configFile = path.join(runtime.home, 'config.yaml');
  const checks = loaded.problems.map(problemCheck);
  // Unknown toolset names and tools that cannot run (a missing variable, a failed check): hermes runs without them.
  const selection = runtime.tools.enabledFor(runtime.toolsets);
  for (const problem of selection.problems) {
    checks.push({ name: 'toolsets', status: 'warn', detail: problem, fix: `correct \`toolsets\` in ${configFile}, or provide what the tool needs` });
  }
  if (!loaded.problems.some((p) => p.file === configFile)) {
    const keys = Object.keys(loaded.config.raw).length;
    checks.unshift({ name: 'config.yaml', status: 'ok', detail: keys ? `${configFile}: ${keys} top-level keys, no problems` : `${configFile}: not present or empty (defaults apply)` });
  }
  // Said once, here, and nowhere else: they are not mistakes, a Hermes home simply has them.
  const keys = loaded.notImplemented;
  const toolsets = selection.notImplemented;
  if (keys.length || toolsets.length) {
    const parts = [
      ...(keys.length ? [`Hermes keys hermes does not implement: ${keys.join(', ')}`] : []),
      ...(toolsets.length ? [`Hermes toolsets it does not have: ${toolsets.join(', ')}`] : []),
    ];
    checks.push({ name: 'hermes keys', status: 'info', detail: `config.yaml sets ${parts.join('; and ')} (left as they are, ignored)` });
  }
  return checks;
}

/** Where the model's key comes from, by name only. */
function keySource(runtime: HermesRuntime, name: string): string | null {
  if (process.env[name]?.trim()) return `${name} set in the environment`;
  if (runtime.loaded.dotenv[name]?.trim()) return `${name} set in ${path.join(runtime.home, '.env')}`;
  return null;
}

function modelCheck(runtime: HermesRuntime): DoctorCheck {
  const resolution = runtime.model;
  const envFile = path.join(runtime.home, '.env');
  if (resolution.ok) {
    const { provider, model, baseUrl } = resolution.model;
    const preset = findPreset(provider);
    const key = preset?.keyVar ? keySource(runtime, preset.keyVar) : null;
    const keyText = key ?? (preset?.keyRequired ? 'no key' : 'no key needed');
    return { name: 'model', status: 'ok', detail: `${provider}/${model} at ${baseUrl} (${keyText})` };
  }
  const preset = resolution.provider ? findPreset(resolution.provider) : undefined;
  const missingKey = preset?.keyVar && preset.keyRequired && !keySource(runtime, preset.keyVar) ? preset.keyVar : null;
  const named = resolution.provider ? `${resolution.provider}/${resolution.model || '?'}: ` : '';
  return {
    name: 'model',
    status: 'fail',
    detail: `${named}${resolution.problem.split('\n')[0]}`,
    fix: missingKey
      ? `put ${missingKey}=<your key> in ${envFile} (or export it), then run hermes doctor again`
      : `set model.provider and model.default in ${path.join(runtime.home, 'config.yaml')} and the provider's key in ${envFile}; or try hermes --demo`,
  };
}

function pluginChecks({ runtime, plugins, pluginsLoaded }: DoctorInputs): DoctorCheck[] {
  if (plugins.length === 0) return [{ name: 'plugins', status: 'ok', detail: `none in ${path.join(runtime.home, 'plugins')}` }];
  const envFile = path.join(runtime.home, '.env');
  return plugins.map((p): DoctorCheck => {
    const name = `plugin ${p.name}`;
    if (p.error === PYTHON_PLUGIN) return { name, status: 'info', detail: `${PYTHON_PLUGIN}: a Hermes plugin (${p.dir}); hermes runs JavaScript and TypeScript plugins` };
    if (p.failed) {
      return { name, status: 'fail', detail: `failed to load: ${p.error}`, fix: `fix it (details in ${path.join(runtime.home, 'logs', 'backend.log')}) or turn it off: hermes plugins disable ${p.name}` };
    }
    if (!p.enabled) return { name, status: 'info', detail: `not loaded: ${p.error ?? 'disabled'}` };
    const counts = `tools ${p.tools}, hooks ${p.hooks}, middleware ${p.middleware}, commands ${p.commands}`;
    const state = pluginsLoaded ? `loaded (${p.source}): ${counts}` : `would load (${p.source})`;
    if (p.missingEnv.length === 0) return { name, status: 'ok', detail: state };
    return {
      name,
      status: 'warn',
      detail: `${state}; requires_env not set: ${describeMissingEnv(p.missingEnv)}`,
      fix: `set ${p.missingEnv.map((m) => m.name).join(', ')} in ${envFile} (or export them)`,
    };
  });
}

/** One row per configured MCP server, once each has connected or failed (or `timeoutMs` passed). */
async function mcpChecks(runtime: HermesRuntime, timeoutMs: number): Promise<DoctorCheck[]> {
  if (runtime.loaded.config.mcp_servers.length === 0) return [];
  // A doctor tries them even where the front end would not have (start() is idempotent).
  runtime.mcp.start();
  await runtime.mcp.whenDiscovered(timeoutMs);
  return runtime.mcp.statuses().map((s): DoctorCheck => {
    const name = `mcp ${s.name}`;
    const fix = `check mcp_servers.${s.name} in ${path.join(runtime.home, 'config.yaml')} (command, args, url, env); hermes mcp test ${s.name} tries it alone`;
    if (s.status === 'connected') return { name, status: 'ok', detail: `connected (${s.transport}: ${s.target}): ${s.tool_count} tool${s.tool_count === 1 ? '' : 's'}` };
    if (s.status === 'disabled') return { name, status: 'info', detail: `disabled in config.yaml (enabled: false): ${s.target}` };
    // Its error names the server and its command or URL, then the last lines of its stderr.
    if (s.status === 'failed') return { name, status: 'fail', detail: s.error ?? `${s.transport}: ${s.target}: failed`, fix };
    return { name, status: 'fail', detail: `${s.transport}: ${s.target}: not connected within ${timeoutMs / 1000} s`, fix };
  });
}

async function onlineCheck(runtime: HermesRuntime, timeoutMs: number): Promise<DoctorCheck> {
  if (!runtime.model.ok) return { name: 'online', status: 'info', detail: 'skipped: no model can be used (see the model line)' };
  return modelRoundTrip(runtime.model.model, timeoutMs);
}
