/**
 * The backend's part of `hermes doctor` (`doctor.check`): what only the backend can see — the SQLite
 * addon and the session store (read-only, never created), config.yaml as loaded, the model it resolved and whether its key is there (never
 * the key), plugins as loaded, MCP servers (each given `timeoutMs` to connect), and on request one
 * model round trip. Node and $HERMES_HOME permissions are checked by the CLI before it starts this
 * process (a backend that cannot start reports nothing).
 */
import path from 'node:path';
import { findPreset, formatProblem, inspectSessionStore, namesEmptyModel, type ConfigProblem, type HermesRuntime, type StoreInspection } from '@hermes/agent-core';
import { describeMissingEnv, PYTHON_PLUGIN, type PluginInfo } from '@hermes/plugin-host';
import type { DoctorCheck } from '../protocol/shapes.ts';
import { splitFix } from '../protocol/startup.ts';
import { modelRoundTrip } from './modelRoundTrip.ts';

export interface DoctorInputs {
  runtime: HermesRuntime;
  plugins: PluginInfo[];
  /** Whether the backend imported the plugins (a discovery-only backend lists them from disk). */
  pluginsLoaded: boolean;
}

export async function doctorChecks(inputs: DoctorInputs, options: { online: boolean; timeoutMs: number }): Promise<DoctorCheck[]> {
  const { runtime } = inputs;
  const checks = [...sqliteChecks(runtime), ...configChecks(runtime), modelCheck(runtime), ...pluginChecks(inputs), ...(await mcpChecks(runtime, options.timeoutMs))];
  if (options.online) checks.push(await onlineCheck(runtime, options.timeoutMs));
  return checks;
}

/**
 * SQLite and the session store, without creating or changing either: the addon on an in-memory
 * database, the store read-only if it exists. Hermes's own state.db, when hermes keeps its sessions
 * beside it, gets an info row saying it is left alone.
 */
function sqliteChecks(runtime: HermesRuntime): DoctorCheck[] {
  let store: StoreInspection;
  try {
    store = inspectSessionStore(runtime.home);
  } catch (error) {
    return [
      {
        name: 'sqlite',
        status: 'fail',
        detail: `the SQLite addon cannot be used: ${(error as Error).message}`,
        fix: 'reinstall hermes so its SQLite addon matches this Node (npm rebuild better-sqlite3 in a repository checkout)',
      },
    ];
  }
  const checks: DoctorCheck[] = [{ name: 'sqlite', status: 'ok', detail: `SQLite ${store.sqliteVersion} (better-sqlite3 addon loaded)` }];
  if (store.problem) {
    const { detail, fix } = splitFix(store.problem);
    checks.push({ name: 'sessions', status: 'fail', detail, fix: fix ?? `move ${store.file} aside` });
  } else if (!store.exists) {
    checks.push({ name: 'sessions', status: 'ok', detail: `hermes keeps its sessions in ${store.file} (not created yet: hermes creates it at its first start)` });
  } else {
    const count = store.sessions ?? 0;
    checks.push({ name: 'sessions', status: 'ok', detail: `hermes keeps its sessions in ${store.file} (${count} session${count === 1 ? '' : 's'}, schema ${store.schemaVersion})` });
  }
  if (store.foreign) {
    checks.push({
      name: 'state.db',
      status: 'info',
      detail: `${store.foreign} is Hermes's own session database (the Python agent's schema): hermes leaves it alone and keeps its sessions in ${store.file}`,
    });
  }
  return checks;
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
  if (namesEmptyModel(runtime.loaded.config)) {
    checks.push({ name: 'config.yaml', status: 'fail', detail: `${configFile}: model is an empty string (model: ""), so no model is named`, fix: EMPTY_MODEL_FIX(configFile, path.join(runtime.home, '.env')) });
  } else if (!loaded.problems.some((p) => p.file === configFile)) {
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
  const configFile = path.join(runtime.home, 'config.yaml');
  if (namesEmptyModel(runtime.loaded.config)) {
    return { name: 'model', status: 'fail', detail: `no model is named: ${configFile} sets model: "" (see the config.yaml line)`, fix: EMPTY_MODEL_FIX(configFile, envFile) };
  }
  if (!resolution.provider && resolution.model) return unpickedProvider(resolution.model, envFile);
  const preset = resolution.provider ? findPreset(resolution.provider) : undefined;
  const missingKey = preset?.keyVar && preset.keyRequired && !keySource(runtime, preset.keyVar) ? preset.keyVar : null;
  const named = resolution.provider ? `${resolution.provider}/${resolution.model || '?'}: ` : '';
  return {
    name: 'model',
    status: 'fail',
    detail: `${named}${resolution.problem.split('\n')[0]}`,
    fix: missingKey
      ? `put ${missingKey}=<your key> in ${envFile} (or export it), then run hermes doctor again`
      : `set model.provider and model.default in ${configFile} and the provider's key in ${envFile}; or try hermes --demo`,
  };
}

/** config.yaml's `model:` written as an empty string: a mistake in the file, not a missing provider. */
const EMPTY_MODEL_FIX = (configFile: string, envFile: string) =>
  `name a model in ${configFile}, e.g. model: anthropic/claude-sonnet-4 (with OPENROUTER_API_KEY in ${envFile}), or model: {provider: ollama, default: llama3.1}`;

/**
 * A model named without a provider (Hermes's `model: anthropic/claude-sonnet-4`): resolveModel picks the
 * provider from the key it finds (OPENROUTER_API_KEY, then OPENAI_API_KEY, then ANTHROPIC_API_KEY), and
 * none is set. An OpenRouter slug works as is on OpenRouter; one led by `anthropic/` or `openai/` also on
 * that vendor's own API (resolveModel drops the prefix); a plain name (`gpt-4o`) only there.
 */
function unpickedProvider(model: string, envFile: string): DoctorCheck {
  const slash = model.indexOf('/');
  const vendor = slash > 0 ? findPreset(model.slice(0, slash)) : undefined;
  const own = vendor && vendor.id !== 'openrouter' && vendor.keyVar ? vendor : undefined;
  const keys: Array<[string, string]> =
    slash > 0
      ? [['OPENROUTER_API_KEY', `OpenRouter serves ${model}`], ...(own ? [[own.keyVar!, `${own.label}'s own API serves ${model.slice(slash + 1)}`] as [string, string]] : [])]
      : [['OPENAI_API_KEY', `OpenAI serves ${model}; for another provider set model.provider`]];
  return {
    name: 'model',
    status: 'fail',
    detail: `${model}: config.yaml names no provider, so hermes picks one by its key, and none is set: it needs ${keys.map(([name, why]) => `${name} (${why})`).join(' or ')}`,
    fix: `put ${keys.map(([name]) => `${name}=<your key>`).join(' or ')} in ${envFile} (or export it), then run hermes doctor again`,
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
    const detail = `connected (${s.transport}: ${s.target}): ${s.tool_count} tool${s.tool_count === 1 ? '' : 's'}`;
    if (s.status === 'connected') return s.note ? { name, status: 'warn', detail: `${detail}; ${s.note}` } : { name, status: 'ok', detail };
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
