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
 *
 * The running callbacks are kept in memory shared with the thread, not sent to it: a message per start
 * and end (~3.5 µs each) made five hooks of a tool call 3× dearer. Each callback takes a slot of
 * CALL_SLOTS and stores there, with `Atomics`, the index of its plugin and callback name; a name is
 * posted to the thread once, before its first use. Beyond CALL_SLOTS callbacks at once, the rest are
 * sent as start and end messages, as before.
 */
import { Worker } from 'node:worker_threads';
import { watchPluginCalls, type BlockedLoad, type CallWatcher, type LoadWatch, type PluginCall } from '@hermes/plugin-host';
import { STARTUP_ERROR_PREFIX } from '../protocol/index.ts';

const GRACE_MS = 1000;
const BEAT_MS = 500;
/**
 * A block shorter than this is never stopped, whatever the hook limit: the heartbeat is coarse, and
 * a busy machine or a long garbage collection can hold the thread for a moment.
 */
const MIN_BLOCK_MS = 5000;

/** Plugin callbacks tracked in shared memory at once (more are sent as messages). */
export const CALL_SLOTS = 256;

// Plain CommonJS run by the worker (no file to ship: the backend is one bundle).
const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const slots = new Int32Array(workerData.slots);
const names = [];
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
    case 'name': names[m.index] = m.call; break;
    case 'start': calls.set(m.id, m.call); break;
    case 'end': calls.delete(m.id); break;
  }
});
// The callbacks running now: those in the shared slots (0: a free slot; else 1 + the name's index) and those sent as messages.
function running() {
  const out = [...calls.values()];
  for (let slot = 0; slot < slots.length; slot += 1) {
    const named = Atomics.load(slots, slot);
    if (named !== 0) out.push(names[named - 1] || { plugin: 'unknown', callback: 'a callback' });
  }
  return out;
}
let lastTick = Date.now();
setInterval(() => {
  // This thread was held too (the machine slept, the process was stopped): the main thread gets a
  // fresh window instead of being blamed for the time nobody ran.
  const now = Date.now();
  if (now - lastTick > 1000) lastBeat = now;
  lastTick = now;
  if (!blockLimitMs || loadTimer || Date.now() - lastBeat <= blockLimitMs) return;
  const active = running();
  if (active.length === 0) return;
  const suspects = [...new Set(active.map((c) => 'plugin ' + c.plugin + ' (' + c.callback + ')'))];
  const plugins = [...new Set(active.map((c) => c.plugin))];
  const seconds = Math.round(blockLimitMs / 1000);
  markBlocked(plugins, 'it blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5), so hermes was stopped');
  stop('hermes-rpc: ' + suspects.join(', ') + ' blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5); hermes was stopped. The plugin is skipped at the next start until its files change; fix or remove it, or run \`hermes plugins disable ' + plugins[0] + '\`.\\n');
}, 250).unref();
`;

/**
 * The watchdog: `watch` is handed to the plugin host (loads); `blockLimitMs()` reads the current
 * hook time limit (0: no limit, never stopped for blocking); `callSlots` is the shared table's size
 * (a test makes it 1 to reach the messages past it).
 */
export function pluginWatchdog(blockLimitMs: () => number, callSlots = CALL_SLOTS): LoadWatch {
  const limit = () => {
    const ms = blockLimitMs();
    return ms > 0 ? Math.max(ms, MIN_BLOCK_MS) : 0;
  };
  const shared = new SharedArrayBuffer(callSlots * Int32Array.BYTES_PER_ELEMENT);
  let worker: Worker | null = null;
  const post = (message: object) => {
    if (!worker) {
      worker = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: false, stderr: false, workerData: { slots: shared } });
      worker.unref();
      // The main thread's heartbeat: it stops while the thread is blocked.
      const beat = () => worker?.postMessage({ kind: 'beat', blockLimitMs: limit() });
      setInterval(beat, BEAT_MS).unref();
      beat();
    }
    worker.postMessage(message);
  };
  watchPluginCalls(callTable(shared, post));
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

/**
 * Keeps the running plugin callbacks in `shared` (one slot each: 1 + the index of its name, 0 when
 * free), posting each name once before its first use; a callback that finds no free slot is sent as
 * start and end messages.
 */
function callTable(shared: SharedArrayBuffer, post: (message: object) => void): CallWatcher {
  const slots = new Int32Array(shared);
  const free = Array.from({ length: slots.length }, (_, i) => slots.length - 1 - i);
  const nameIndex = new Map<string, number>();
  const slotOf = new WeakMap<PluginCall, number>();
  const idOf = new WeakMap<PluginCall, number>();
  let nextId = 0;
  return {
    started(call) {
      const slot = free.pop();
      if (slot === undefined) {
        const id = (nextId += 1);
        idOf.set(call, id);
        post({ kind: 'start', id, call: { plugin: call.plugin, callback: call.callback } });
        return;
      }
      const key = `${call.plugin}\u0000${call.callback}`;
      let index = nameIndex.get(key);
      if (index === undefined) {
        index = nameIndex.size;
        nameIndex.set(key, index);
        // Posted before the slot is written: should this callback block the thread, its name is on its way.
        post({ kind: 'name', index, call: { plugin: call.plugin, callback: call.callback } });
      }
      slotOf.set(call, slot);
      Atomics.store(slots, slot, index + 1);
    },
    ended(call) {
      const slot = slotOf.get(call);
      if (slot !== undefined) {
        slotOf.delete(call);
        Atomics.store(slots, slot, 0);
        free.push(slot);
        return;
      }
      const id = idOf.get(call);
      if (id !== undefined) post({ kind: 'end', id });
    },
  };
}
