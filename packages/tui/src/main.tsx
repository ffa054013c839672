/**
 * The `hermes` entry point. Kept thin so `--help`, `--version` and the no-terminal message are
 * instant: Ink, React and the backend client load only when the TUI actually opens.
 */
import { runtimeFrom } from './app/runtime.ts';
import { backendOptionsOf, HELP_TEXT, NO_TTY_MESSAGE, UsageError, parseCliArgs, type CliOptions } from './cli/args.ts';
import { isInteractiveTerminal } from './cli/terminal.ts';
import type { Logger } from './logging/logger.ts';
import type { BackendOptions } from './rpc/backendCommand.ts';
import type { BackendProcess } from './rpc/backendProcess.ts';

/**
 * A reader that stops reading (`hermes chat -q … --json | head -1`) ends the command quietly, as
 * Unix tools do, instead of an unhandled EPIPE with a stack trace. A backend still running sees its
 * stdin close and stores what the turn had.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`hermes: cannot write output: ${error.message}\n`);
    process.exit(1);
  });
}

/**
 * Takes over the backend the launcher spawned before this bundle loaded (rpc/earlyBackend.ts), or
 * spawns it with only node:child_process and the path lookup loaded; then loads what drives it (the
 * client, the logger). Undefined when its command cannot be worked out: the controller then tries
 * again the usual way and shows the reason on screen.
 */
async function startBackend(options: BackendOptions): Promise<{ backend: BackendProcess; logger: Logger } | undefined> {
  const [{ backendCommand }, { spawnBackend }, { takeEarlyBackend }] = await Promise.all([
    import('./rpc/backendCommand.ts'),
    import('./rpc/backendSpawn.ts'),
    import('./rpc/earlyBackend.ts'),
  ]);
  let spawned = takeEarlyBackend(options);
  if (!spawned) {
    let command;
    try {
      command = backendCommand(options);
    } catch {
      return undefined;
    }
    spawned = spawnBackend(command);
  }
  const [{ BackendProcess }, { createLogger }] = await Promise.all([import('./rpc/backendProcess.ts'), import('./logging/logger.ts')]);
  const logger = createLogger();
  return { backend: new BackendProcess(spawned, logger), logger };
}

async function main(): Promise<void> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  let options: CliOptions;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`hermes: ${error.message}\nRun \`hermes --help\` for usage.\n`);
    process.exitCode = 2;
    return;
  }
  if (options.help) {
    process.stdout.write(HELP_TEXT);
    return;
  }
  if (options.version) {
    const { versionLine } = await import('@hermes/rpc-server/protocol');
    process.stdout.write(`${versionLine('hermes')}\n`);
    return;
  }
  if (options.resume !== undefined && options.continueLatest) {
    process.stderr.write('hermes: --resume and --continue cannot be used together\nRun `hermes --help` for usage.\n');
    process.exitCode = 2;
    return;
  }
  if (options.resume !== undefined && !options.resume.trim()) {
    process.stderr.write('hermes: --resume needs a session id or title\nRun `hermes --help` for usage.\n');
    process.exitCode = 2;
    return;
  }
  if (options.positionals[0] === 'chat') {
    if (!options.query?.trim()) {
      process.stderr.write('hermes chat: give the prompt with -q "<prompt>"\nRun `hermes --help` for usage.\n');
      process.exitCode = 2;
      return;
    }
    const [{ runChat }, { createLogger }] = await Promise.all([import('./cli/chatCommand.ts'), import('./logging/logger.ts')]);
    process.exitCode = await runChat(
      {
        prompt: options.query,
        json: options.json,
        yolo: options.yolo,
        cwd: process.cwd(),
        ...(options.resume !== undefined ? { resume: options.resume } : {}),
        continueLatest: options.continueLatest,
        backend: { model: options.model, provider: options.provider, baseUrl: options.baseUrl, demo: false },
      },
      { stdout: process.stdout, stderr: process.stderr },
      createLogger(),
    );
    return;
  }
  if (options.positionals[0] === 'sessions') {
    const [{ runSessions }, { createLogger }] = await Promise.all([import('./cli/sessionsCommand.ts'), import('./logging/logger.ts')]);
    process.exitCode = await runSessions(
      options.positionals.slice(1),
      { limit: options.limit, format: options.format, all: options.all, backend: { model: options.model, provider: options.provider, baseUrl: options.baseUrl } },
      { stdout: process.stdout, stderr: process.stderr },
      createLogger(),
    );
    return;
  }
  if (options.positionals[0] === 'approvals') {
    const [{ runApprovals }, { createStreamLogger }] = await Promise.all([import('./cli/approvalsCommand.ts'), import('./logging/logger.ts')]);
    // Logs go to stderr: approvals check creates nothing under $HERMES_HOME, not even logs/tui.log.
    process.exitCode = await runApprovals(
      options.positionals.slice(1),
      { json: options.json, write: options.write, cwd: options.cwd },
      { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr },
      createStreamLogger(process.stderr),
    );
    return;
  }
  if (options.positionals[0] === 'mcp') {
    const [{ runMcp }, { createLogger }] = await Promise.all([import('./cli/mcpCommand.ts'), import('./logging/logger.ts')]);
    process.exitCode = await runMcp(
      options.positionals.slice(1),
      options.mcpServer,
      { noMcpConnect: options.positionals[1] !== 'list' },
      { stdout: process.stdout, stderr: process.stderr },
      createLogger(),
    );
    return;
  }
  if (options.positionals[0] === 'doctor') {
    if (options.positionals.length > 1) {
      process.stderr.write(`hermes doctor: takes no arguments (got "${options.positionals[1]}"); use --online to try the model too\n`);
      process.exitCode = 2;
      return;
    }
    const [{ runDoctor }, { createLogger }] = await Promise.all([import('./cli/doctorCommand.ts'), import('./logging/logger.ts')]);
    process.exitCode = await runDoctor(
      { online: options.online, backend: { model: options.model, provider: options.provider, baseUrl: options.baseUrl } },
      { stdout: process.stdout, stderr: process.stderr },
      createLogger(),
    );
    return;
  }
  if (options.positionals.length > 0) {
    const [{ runPlugins, runPluginCli }, { createLogger }] = await Promise.all([import('./cli/pluginsCommand.ts'), import('./logging/logger.ts')]);
    const io = { stdout: process.stdout, stderr: process.stderr };
    const backend = { model: options.model, provider: options.provider, baseUrl: options.baseUrl };
    process.exitCode =
      options.positionals[0] === 'plugins'
        ? await runPlugins(options.positionals.slice(1), backend, io, createLogger())
        : await runPluginCli(options.positionals, backend, io, createLogger());
    return;
  }
  if (!isInteractiveTerminal()) {
    process.stderr.write(NO_TTY_MESSAGE);
    process.exitCode = 1;
    return;
  }
  const backend = backendOptionsOf(options);
  // The backend's boot is the longest wait of a start: it begins before the screen's code (and Ink)
  // even loads, and runs in parallel with loading it and drawing the first frame.
  const started = options.demo ? undefined : await startBackend(backend);
  const { prepareTui, runTui } = await import('./app/runTui.tsx');
  const prepared = prepareTui({
    runtime: runtimeFrom(import.meta.url),
    backend,
    startup: options.resume ? { kind: 'resume', target: options.resume.trim() } : options.continueLatest ? { kind: 'continue' } : { kind: 'new' },
    ...(started ? { started } : {}),
  });
  await runTui(prepared);
}

main().catch(async (error: unknown) => {
  // Never a stack trace on screen: the message here, the stack in tui.log.
  let where = '';
  try {
    const { createLogger } = await import('./logging/logger.ts');
    const logger = createLogger();
    logger.error('hermes failed', { error });
    where = ` (details: ${logger.file})`;
  } catch {
    where = '';
  }
  process.stderr.write(`hermes: ${error instanceof Error ? error.message : String(error)}${where}\n`);
  process.exit(1);
});
