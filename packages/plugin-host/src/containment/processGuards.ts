import { ErrorCode, HermesError, type Logger } from '@hermes/agent-core';
import { currentPluginCall, describeCall, type PluginCall } from './pluginScope.ts';

/** Thrown into plugin code that tries to end or signal the backend process (a plugin's bug: internal). */
export class PluginProcessControlRefused extends HermesError {
  constructor(
    readonly call: PluginCall,
    what: string,
  ) {
    super(ErrorCode.InternalError, `${describeCall(call)} called ${what}: refused (a plugin may not end the hermes backend; throw an error instead)`);
    this.name = 'PluginProcessControlRefused';
  }
}

let installed = false;

/**
 * `process.exit` (and `reallyExit`), `process.abort` and `process.kill(process.pid, …)` called from plugin code throw
 * an error naming the plugin instead of ending the backend; each refusal is logged once per plugin
 * and call. The backend's own calls (outside any plugin's async context) pass through.
 */
export function refuseProcessControlFromPlugins(logger: Logger): void {
  if (installed) return;
  installed = true;
  const reported = new Set<string>();
  const refuse = (what: string): never => {
    const call = currentPluginCall()!;
    const error = new PluginProcessControlRefused(call, what);
    const key = `${call.plugin}\u0000${what}`;
    if (!reported.has(key)) {
      reported.add(key);
      logger.error(`${error.message}\n${error.stack ?? ''}`);
      // Also where the client keeps the backend's output (the TUI shows its tail when the backend fails).
      process.stderr.write(`hermes-rpc: ${error.message}\n`);
    }
    throw error;
  };
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    if (currentPluginCall()) refuse(`process.exit(${code ?? ''})`);
    return exit(code);
  }) as typeof process.exit;
  // process.exit ends in this undocumented one; a plugin could call it directly.
  const internals = process as unknown as { reallyExit?: (code?: number) => never };
  const reallyExit = internals.reallyExit?.bind(process);
  if (reallyExit) {
    internals.reallyExit = (code?: number) => {
      if (currentPluginCall()) refuse(`process.reallyExit(${code ?? ''})`);
      return reallyExit(code);
    };
  }
  const abort = process.abort.bind(process);
  process.abort = (() => {
    if (currentPluginCall()) refuse('process.abort()');
    return abort();
  }) as typeof process.abort;
  const kill = process.kill.bind(process);
  process.kill = ((pid: number, signal?: string | number) => {
    if (currentPluginCall() && (pid === process.pid || pid === 0 || pid === -process.pid)) refuse(`process.kill(${pid}, ${signal ?? 'SIGTERM'})`);
    return kill(pid, signal);
  }) as typeof process.kill;
}
