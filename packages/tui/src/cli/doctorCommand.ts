/**
 * `hermes doctor [--online]`: one line per check, a fix for each failure, exit 1 when any fails
 * (warnings do not fail). Node and $HERMES_HOME are checked here, before a backend starts; the rest
 * comes from the backend (`doctor.check`). A backend that cannot start is itself a failed check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { findStartupError, splitFix, type DoctorCheck } from '@hermes/rpc-server/protocol';
import { errorMessage } from '../app/rpcErrors.ts';
import { hermesHome, type Logger } from '../logging/logger.ts';
import { backendCommand, type BackendOptions } from '../rpc/backendCommand.ts';
import { BackendProcess } from '../rpc/backendProcess.ts';
import type { ChatIo } from './chatCommand.ts';
import { plainText } from './plainText.ts';

/** The Node versions hermes runs on: the repository's `engines.node` (a test keeps the two equal). */
export const NODE_ENGINES = { min: [20, 11] as const, belowMajor: 23 };
export const NODE_RANGE = `>=${NODE_ENGINES.min.join('.')} <${NODE_ENGINES.belowMajor}`;

/** How long `doctor.check` may take beyond its waits for MCP servers and the model (plugins and config are already loaded). */
const ANSWER_GRACE_MS = 20_000;
/** What each bounded step may take: MCP servers connecting, the model's answer with --online. */
const STEP_TIMEOUT_MS = 15_000;

export interface DoctorOptions {
  online: boolean;
  backend: BackendOptions;
}

export function nodeCheck(version: string = process.versions.node): DoctorCheck {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [minMajor, minMinor] = NODE_ENGINES.min;
  const fits = (major > minMajor || (major === minMajor && minor >= minMinor)) && major < NODE_ENGINES.belowMajor;
  if (fits) return { name: 'node', status: 'ok', detail: `Node ${version} (hermes needs ${NODE_RANGE})` };
  return { name: 'node', status: 'fail', detail: `Node ${version}; hermes needs ${NODE_RANGE}`, fix: `install Node ${minMajor}.${minMinor} or a later 20.x/22.x (nvm install 22), then reinstall hermes` };
}

const writable = (dir: string): boolean => {
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** $HERMES_HOME: there (or creatable), writable, and its .env readable by its owner only. */
export function homeChecks(home: string): DoctorCheck[] {
  const stat = fs.statSync(home, { throwIfNoEntry: false });
  if (!stat) {
    // The first start creates it; what matters is that the nearest existing parent can be written.
    let parent = path.dirname(home);
    while (!fs.existsSync(parent) && parent !== path.dirname(parent)) parent = path.dirname(parent);
    if (writable(parent)) return [{ name: 'home', status: 'info', detail: `${home} does not exist yet; hermes creates it at its first start` }];
    return [{ name: 'home', status: 'fail', detail: `${home} does not exist and ${parent} cannot be written`, fix: `chmod u+rwx ${parent} (as its owner), or set HERMES_HOME to a folder you can write` }];
  }
  if (!stat.isDirectory()) return [{ name: 'home', status: 'fail', detail: `${home} is not a folder`, fix: `move it aside (mv ${home} ${home}.file), or set HERMES_HOME to a folder` }];
  const checks: DoctorCheck[] = writable(home)
    ? [{ name: 'home', status: 'ok', detail: `${home} (writable)` }]
    : [{ name: 'home', status: 'fail', detail: `${home} cannot be written (hermes keeps state.db, logs and config changes there)`, fix: `chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write` }];
  const envFile = path.join(home, '.env');
  const env = fs.statSync(envFile, { throwIfNoEntry: false });
  if (env && (env.mode & 0o044) !== 0) {
    const mode = (env.mode & 0o777).toString(8);
    checks.push({ name: '.env', status: 'warn', detail: `${envFile} holds API keys and other users can read it (mode ${mode})`, fix: `chmod 600 ${envFile}` });
  } else if (env) checks.push({ name: '.env', status: 'ok', detail: `${envFile} (readable by its owner only)` });
  return checks;
}

const LABEL: Record<DoctorCheck['status'], string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', info: 'info' };

/**
 * One line, whatever the detail holds (a server's stderr tail has several): its lines are joined with ` | `.
 * Names, details and fixes can hold what a server, plugin or config.yaml wrote: no escape sequence of
 * theirs reaches the terminal.
 */
export function formatCheck(check: DoctorCheck): string {
  const oneLine = (text: string) => plainText(text).trim().replace(/\s*\n\s*/g, ' | ');
  return `${LABEL[check.status]}  ${oneLine(check.name)}: ${oneLine(check.detail)}${check.fix ? ` — fix: ${oneLine(check.fix)}` : ''}`;
}

/** What a backend that did not start or answer said: its startup error, else the error and the last lines of its stderr. */
function backendFailure(error: unknown, backend: BackendProcess, home: string, wasReady: boolean): DoctorCheck {
  const tail = backend.stderrTail(20).filter((line) => line.trim() !== '' && !/^\s+at /.test(line));
  const startupError = findStartupError(tail);
  const said = startupError ?? [errorMessage(error), ...tail.slice(-5)].join(' / ');
  const { detail, fix } = splitFix(said);
  return {
    name: 'backend',
    status: 'fail',
    detail: `hermes-rpc ${!wasReady ? 'could not start' : backend.hasExited ? 'stopped during the checks' : 'did not answer'}: ${detail}`,
    fix: fix ?? `read ${path.join(home, 'logs', 'backend.log')}; a plugin that stops the start can be turned off with hermes plugins disable <name>`,
  };
}

async function backendChecks(options: DoctorOptions, logger: Logger, home: string): Promise<DoctorCheck[]> {
  // Doctor reads the session database (read-only, in doctor.check) and never creates it.
  const backend = new BackendProcess(backendCommand({ ...options.backend, noSessionStore: true }), logger);
  let timer: NodeJS.Timeout | undefined;
  let ready = false;
  try {
    await backend.waitReady();
    ready = true;
    const limitMs = STEP_TIMEOUT_MS * (options.online ? 2 : 1) + ANSWER_GRACE_MS;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`doctor.check got no answer within ${limitMs / 1000} s`)), limitMs);
    });
    const request = backend.client.request('doctor.check', { online: options.online, timeout_ms: STEP_TIMEOUT_MS });
    return (await Promise.race([request, late])).checks;
  } catch (error) {
    logger.warn('hermes doctor: the backend failed', { error });
    return [backendFailure(error, backend, home, ready)];
  } finally {
    clearTimeout(timer);
    await backend.shutdown(2_000);
  }
}

export async function runDoctor(options: DoctorOptions, io: ChatIo, logger: Logger): Promise<number> {
  const home = hermesHome();
  const checks = [nodeCheck(), ...homeChecks(home)];
  for (const check of checks) io.stdout.write(`${formatCheck(check)}\n`);
  const fromBackend = await backendChecks(options, logger, home);
  for (const check of fromBackend) io.stdout.write(`${formatCheck(check)}\n`);
  const all = [...checks, ...fromBackend];
  const failed = all.filter((c) => c.status === 'fail').length;
  const warned = all.filter((c) => c.status === 'warn').length;
  io.stdout.write(`\n${failed ? `${failed} failed` : 'no failures'}${warned ? `, ${warned} warning${warned > 1 ? 's' : ''}` : ''}${options.online ? '' : ' (hermes doctor --online also tries the model)'}\n`);
  return failed ? 1 : 0;
}
