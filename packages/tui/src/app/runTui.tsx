/** Runs the interactive TUI: renders the app, starts the backend behind it, and exits cleanly. */
import type { RenderOptions } from 'ink';
import type { LocalEcho } from '../echo/localEcho.ts';
import { createLogger, type Logger } from '../logging/logger.ts';
import { onMarkdownFailure } from '../markdown/loadMarkdown.ts';
import type { BackendOptions } from '../rpc/backendCommand.ts';
import type { BackendProcess } from '../rpc/backendProcess.ts';
import type { Runtime } from './runtime.ts';
import { SessionController } from './sessionController.ts';
import type { StartupSession } from './sessionHost.ts';
import { enableTerminalModes } from './terminalModes.ts';

/** However shutdown goes, the process is gone this long after the user asked to exit. */
const EXIT_DEADLINE_MS = 5_000;

/**
 * Creates the controller and starts the backend at once, before Ink and React have loaded (or takes
 * over the backend main.tsx started even before this code loaded, with the logger it was given).
 */
export function prepareTui(options: { backend: BackendOptions; runtime: Runtime; startup?: StartupSession; started?: { backend: BackendProcess; logger: Logger } }): {
  controller: SessionController;
  logger: Logger;
} {
  const logger = options.started?.logger ?? createLogger();
  logger.info('hermes TUI starting', { ...options.backend, bundled: options.runtime.bundled, pid: process.pid });
  onMarkdownFailure((error) => logger.error('the markdown renderer could not load; replies show as plain text', { error: error.message }));
  const controller = new SessionController({
    backend: options.backend,
    runtime: options.runtime,
    logger,
    cwd: process.cwd(),
    cols: process.stdout.columns || 80,
    startup: options.startup,
    ...(options.started ? { started: options.started.backend } : {}),
  });
  void controller.launch();
  return { controller, logger };
}

export async function runTui({ controller, logger }: { controller: SessionController; logger: Logger }): Promise<void> {
  const { render } = await import('ink');
  const { App } = await import('../components/App.tsx');
  const { LocalEcho } = await import('../echo/localEcho.ts');
  const terminal = enableTerminalModes(process.stdout);
  // Keys typed into the composer are echoed before their frame (echo/localEcho.ts): it counts every
  // write to the terminal from here on, stderr's too, so it knows when Ink's last frame is what it shows.
  const echo = process.stdout.isTTY ? new LocalEcho(process.stdout, [process.stderr]) : undefined;

  let exiting = false;
  /**
   * Ends the run once, whatever asked first. With the terminal gone (hang-up, closed window) nothing
   * is written to it any more. A deadline makes sure a hung shutdown cannot keep the process alive.
   */
  const exit = (code: number, terminalGone = false) => {
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(code), EXIT_DEADLINE_MS).unref();
    if (!terminalGone) {
      try {
        // Restore the screen first so exiting feels instant; the backend gets its grace period after.
        instance.unmount();
        terminal.restore();
      } catch (error) {
        logger.warn('could not restore the terminal', { error });
      }
    }
    void controller.shutdown().finally(() => {
      logger.info('hermes TUI exited', { code });
      process.exit(code);
    });
  };

  const options: RenderOptions & { onFrame?: LocalEcho['frameWritten'] } = {
    exitOnCtrlC: false,
    patchConsole: false,
    // Only the rows that changed are written: a key rewrites its composer row, not the whole live area.
    incrementalRendering: true,
    // No frame clock in Ink: its 30 fps throttle held a key's echo until the next frame (up to 33 ms
    // during a stream). Frequent updates are paced where they come from (deltas one store update per
    // frame, deltaBatcher.ts; tool progress every 100 ms), so a key paints at once.
    maxFps: 0,
    // Ink's writer reports each frame it writes (patches/ink+6.8.0.patch; not in Ink's types).
    onFrame: echo?.frameWritten,
  };
  const instance = render(<App controller={controller} onExit={() => exit(0)} echo={echo} />, options);

  // Writes to a vanished terminal fail with EIO/EPIPE: handled here, they end the run quietly
  // instead of surfacing as uncaught exceptions on every frame Ink tries to draw.
  const onTerminalError = (error: NodeJS.ErrnoException) => {
    if (!exiting) logger.warn('terminal closed', { code: error.code, message: error.message });
    exit(129, true);
  };
  process.stdout.on('error', onTerminalError);
  process.stdin.on('error', onTerminalError);
  process.once('SIGTERM', () => exit(143));
  process.once('SIGHUP', () => exit(129, true));
  process.on('uncaughtException', (error: NodeJS.ErrnoException) => {
    if (exiting) return;
    logger.error('uncaught exception', { error });
    const terminalGone = error.code === 'EIO' || error.code === 'EPIPE' || error.code === 'ENXIO';
    if (!terminalGone) {
      try {
        terminal.restore();
        instance.unmount();
        process.stderr.write(`hermes crashed: ${error.message}\nDetails are in ${logger.file}\n`);
      } catch {
        // Already reporting a crash; the log has the details.
      }
    }
    exit(1, terminalGone);
  });

  void controller.start();
  await instance.waitUntilExit();
}
