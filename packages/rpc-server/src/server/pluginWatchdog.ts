/**
 * A plugin that runs a synchronous loop blocks the backend's only thread: no timer fires, so neither
 * `plugins.register_timeout` nor `plugins.hook_callback_timeout` can end it, and hermes would hang —
 * at every start, if it happens while loading. A worker thread keeps time instead:
 * - while a plugin loads: past the register limit (and a second's grace, in which the main thread's
 *   own timeout handles a load that merely never resolves);
 * - afterwards: when the main thread's heartbeat stops for longer than the hook limit while plugin
 *   callbacks are running (they are the suspects; the main thread reports each start and end), and
 *   at least MIN_BLOCK_MS.
 * It then records the plugin as blocked (later starts skip it while its entry file is unchanged),
 * writes one line naming the plugin and the fix (as a startup error while loading), and ends the
 * process with SIGKILL: a blocked thread runs no signal handler. While a known-good set of plugins is
 * imported together (the fast path) no plugin is known to be running: the line says so, nothing is
 * recorded, and the next start (whose known-good record is gone) imports them marked and names it.
 */
import { Worker } from 'node:worker_threads';
import { watchPluginCalls, type BlockedLoad, type LoadWatch, type PluginCall } from '@hermes/plugin-host';
import { STARTUP_ERROR_PREFIX } from '../protocol/index.ts';

const GRACE_MS = 1000;
const BEAT_MS = 500;
/**
 * A block shorter than this is never stopped, whatever the hook limit: the heartbeat is coarse, and
 * a busy machine or a long garbage collection can hold the thread for a moment.
 */
const MIN_BLOCK_MS = 5000;

// Plain CommonJS run by the worker (no file to ship: the backend is one bundle).
const WATCHDOG_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
let loadTimer = null;
let lastBeat = Date.now();
let blockLimitMs = 0;
let recordFile = null;
let recordsHead = '';
const entries = new Map();
const calls = new Map();
function markBlocked(plugins, error) {
  if (!recordFile) return;
  let data = { version: 1, plugins: {} };
  try { data = JSON.parse(fs.readFileSync(recordFile, 'utf8')); } catch {}
  data.plugins = data.plugins || {};
  for (const name of plugins) {
    const entry = entries.get(name);
    let stat = null;
    try { stat = entry && fs.statSync(entry); } catch {}
    const old = data.plugins[name] || { dir: '', tools: 0, hooks: 0, middleware: 0, commands: 0 };
    data.plugins[name] = { ...old, error, failed: true, ...(stat ? { blocked: { entry, mtimeMs: stat.mtimeMs, size: stat.size } } : {}) };
  }
  try { fs.writeFileSync(recordFile, JSON.stringify(data, null, 2) + '\\n'); } catch {}
}
function stop(line) {
  try { fs.writeSync(2, line); } catch {}
  process.kill(process.pid, 'SIGKILL');
}
parentPort.on('message', (m) => {
  switch (m.kind) {
    case 'load':
      clearTimeout(loadTimer);
      if (m.plugin) entries.set(m.plugin, m.entry);
      recordFile = m.recordFile;
      if (m.recordsHead !== undefined) recordsHead = m.recordsHead;
      loadTimer = setTimeout(() => {
        if (m.record !== undefined) try { fs.writeFileSync(m.recordFile, recordsHead + m.record + '}}\\n'); } catch {}
        stop(m.line);
      }, m.limitMs + m.graceMs);
      break;
    case 'loaded': clearTimeout(loadTimer); loadTimer = null; break;
    case 'beat': lastBeat = Date.now(); blockLimitMs = m.blockLimitMs; break;
    case 'start': calls.set(m.id, m.call); break;
    case 'end': calls.delete(m.id); break;
  }
});
let lastTick = Date.now();
setInterval(() => {
  // This thread was held too (the machine slept, the process was stopped): the main thread gets a
  // fresh window instead of being blamed for the time nobody ran.
  const now = Date.now();
  if (now - lastTick > 1000) lastBeat = now;
  lastTick = now;
  if (!blockLimitMs || loadTimer || calls.size === 0 || Date.now() - lastBeat <= blockLimitMs) return;
  const suspects = [...new Set([...calls.values()].map((c) => 'plugin ' + c.plugin + ' (' + c.callback + ')'))];
  const plugins = [...new Set([...calls.values()].map((c) => c.plugin))];
  const seconds = Math.round(blockLimitMs / 1000);
  markBlocked(plugins, 'it blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5), so hermes was stopped');
  stop('hermes-rpc: ' + suspects.join(', ') + ' blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5); hermes was stopped. The plugin is skipped at the next start until its files change; fix or remove it, or run \`hermes plugins disable ' + plugins[0] + '\`.\\n');
}, 250).unref();
`;

/**
 * The watchdog: `watch` is handed to the plugin host (loads); `blockLimitMs()` reads the current
 * hook time limit (0: no limit, never stopped for blocking).
 */
export function pluginWatchdog(blockLimitMs: () => number): LoadWatch {
  const limit = () => {
    const ms = blockLimitMs();
    return ms > 0 ? Math.max(ms, MIN_BLOCK_MS) : 0;
  };
  let worker: Worker | null = null;
  const post = (message: object) => {
    if (!worker) {
      worker = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false });
      worker.unref();
      // The main thread's heartbeat: it stops while the thread is blocked.
      const beat = () => worker?.postMessage({ kind: 'beat', blockLimitMs: limit() });
      setInterval(beat, BEAT_MS).unref();
      beat();
    }
    worker.postMessage(message);
  };
  const ids = new WeakMap<PluginCall, number>();
  let next = 0;
  watchPluginCalls({
    started(call) {
      const id = (next += 1);
      ids.set(call, id);
      post({ kind: 'start', id, call: { plugin: call.plugin, callback: call.callback } });
    },
    ended(call) {
      const id = ids.get(call);
      if (id !== undefined) post({ kind: 'end', id });
    },
  });
  // The records head is the same string for every plugin of a load, and large (every plugin's last
  // record): posted only when it changes, not cloned to the worker twice per plugin.
  let headSent: string | null = null;
  return {
    start(load: BlockedLoad) {
      const head = load.recordsHead === undefined || load.recordsHead === headSent ? {} : { recordsHead: (headSent = load.recordsHead) };
      post({
        kind: 'load',
        plugin: load.plugin,
        entry: load.entry,
        limitMs: load.limitMs,
        graceMs: GRACE_MS,
        recordFile: load.recordFile,
        ...head,
        record: load.record,
        line: `${STARTUP_ERROR_PREFIX}${load.message}\n`,
      });
    },
    stop() {
      worker?.postMessage({ kind: 'loaded' });
    },
  };
}
