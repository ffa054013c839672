/**
 * A plugin whose import or register() runs a synchronous loop blocks the backend's only thread: no
 * timer fires, so `plugins.register_timeout` cannot end it and hermes would never start. A worker
 * thread keeps time instead: past the limit (and a second's grace, in which the main thread's own
 * timeout handles a load that merely never resolves) it records the plugin as blocked — the next
 * start skips it while its entry file is unchanged — writes the startup-error line naming the plugin
 * and the fix, and ends the process (SIGKILL: a blocked thread runs no signal handler).
 */
import { Worker } from 'node:worker_threads';
import type { BlockedLoad, LoadWatch } from '@hermes/plugin-host';
import { STARTUP_ERROR_PREFIX } from '../protocol/index.ts';

const GRACE_MS = 1000;

// Plain CommonJS run by the worker (no file to ship: the backend is one bundle).
const WATCHDOG_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
let timer = null;
parentPort.on('message', (m) => {
  clearTimeout(timer);
  timer = null;
  if (m.kind !== 'start') return;
  timer = setTimeout(() => {
    try { fs.writeFileSync(m.recordFile, m.recordText); } catch {}
    try { fs.writeSync(2, m.line); } catch {}
    process.kill(process.pid, 'SIGKILL');
  }, m.limitMs + m.graceMs);
});
`;

export function pluginLoadWatchdog(): LoadWatch {
  let worker: Worker | null = null;
  const post = (message: object) => {
    if (!worker) {
      worker = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false });
      worker.unref();
    }
    worker.postMessage(message);
  };
  return {
    start(load: BlockedLoad) {
      post({ kind: 'start', limitMs: load.limitMs, graceMs: GRACE_MS, recordFile: load.recordFile, recordText: load.recordText, line: `${STARTUP_ERROR_PREFIX}${load.message}\n` });
    },
    stop() {
      worker?.postMessage({ kind: 'stop' });
    },
  };
}
