/** Runs the interactive TUI: renders the app, starts the backend behind it, and exits cleanly. */
import { render } from 'ink';
import { App } from '../components/App.tsx';
import { createLogger } from '../logging/logger.ts';
import type { BackendOptions } from '../rpc/backendCommand.ts';
import type { Runtime } from './runtime.ts';
import { SessionController } from './sessionController.ts';
import { enableTerminalModes } from './terminalModes.ts';

export async function runTui(options: { backend: BackendOptions; runtime: Runtime }): Promise<void> {
  const logger = createLogger();
  logger.info('hermes TUI starting', { ...options.backend, bundled: options.runtime.bundled, pid: process.pid });
  const controller = new SessionController({
    backend: options.backend,
    runtime: options.runtime,
    logger,
    cwd: process.cwd(),
    cols: process.stdout.columns || 80,
  });
  const terminal = enableTerminalModes(process.stdout);

  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    // Restore the screen first so exiting feels instant; the backend gets its grace period after.
    instance.unmount();
    terminal.restore();
    await controller.shutdown();
    logger.info('hermes TUI exited', { code });
    process.exit(code);
  };

  const instance = render(<App controller={controller} onExit={() => void exit(0)} />, {
    exitOnCtrlC: false,
    patchConsole: false,
  });

  process.once('SIGTERM', () => void exit(143));
  process.once('SIGHUP', () => void exit(129));
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception', { error });
    terminal.restore();
    instance.unmount();
    process.stderr.write(`hermes crashed: ${error.message}\nDetails are in ${logger.file}\n`);
    void controller.shutdown().finally(() => process.exit(1));
  });

  void controller.start();
  await instance.waitUntilExit();
}
