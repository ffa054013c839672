/**
 * The plugin watchdog's thread (pluginWatchdog.ts starts it): its source, and the memory it shares
 * with the main thread. What the main thread tells it on every plugin callback and every plugin load
 * is written there, not posted: a message costs the main thread ~3.5 µs and wakes this thread, and a
 * load of 100 plugins sent ~300 of them. Messages carry what is said once (the records head, the
 * heartbeat) and what does not fit.
 *
 * - `slots` (Int32, one per running callback): 0 free; n > 0 the callback whose name record starts at
 *   byte n − 1 of `names`; n < 0 the name posted as message −n − 1.
 * - `names`: name records, appended once each: two bytes of length (little-endian), then the UTF-8 of
 *   `[plugin, callback, entry]` as JSON (entry: the plugin's entry file, when known, for its record).
 * - `control[LOAD_SEQ]`: 0 while no plugin code of a load runs, else a number that changes with every
 *   plugin; `control[LOAD_LENGTH]`: the length of the load's JSON in `load` (see WatchedLoad). The main
 *   thread sets LOAD_SEQ to 0 before it rewrites `load`, so a read that meets the same number before
 *   and after was not torn.
 */

export const LOAD_SEQ = 0;
export const LOAD_LENGTH = 1;
export const CONTROL_WORDS = 2;

/** The load in shared memory, as JSON; the thread ends the process with `line` past `limitMs` + its grace. */
export interface WatchedLoad {
  plugin: string | null;
  entry: string | null;
  limitMs: number;
  recordFile: string;
  /** This plugin's record as blocked, appended to the records head (see BlockedLoad). */
  record?: string;
  line: string;
}

export const GRACE_MS = 1000;

// Plain CommonJS run by the worker (no file to ship: the backend is one bundle).
export const WATCHDOG_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const slots = new Int32Array(workerData.slots);
const control = new Int32Array(workerData.control);
const loadBytes = new Uint8Array(workerData.load);
const nameBytes = new Uint8Array(workerData.names);
const decoder = new TextDecoder();
const text = (bytes, at, length) => decoder.decode(bytes.slice(at, at + length));
const GRACE_MS = ${GRACE_MS};
const names = [];
let loadTimer = null;
let lastBeat = Date.now();
let blockLimitMs = 0;
let recordsHead = '';
const calls = new Map();
function markBlocked(recordFile, active, error) {
  let data = { version: 1, plugins: {} };
  try { data = JSON.parse(fs.readFileSync(recordFile, 'utf8')); } catch {}
  data.plugins = data.plugins || {};
  for (const { plugin, entry } of active) {
    let stat = null;
    try { stat = entry && fs.statSync(entry); } catch {}
    const old = data.plugins[plugin] || { dir: '', tools: 0, hooks: 0, middleware: 0, commands: 0 };
    data.plugins[plugin] = { ...old, error, failed: true, ...(stat ? { blocked: { entry, mtimeMs: stat.mtimeMs, size: stat.size } } : {}) };
  }
  try { fs.writeFileSync(recordFile, JSON.stringify(data, null, 2) + '\\n'); } catch {}
}
function stop(line) {
  try { fs.writeSync(2, line); } catch {}
  process.kill(process.pid, 'SIGKILL');
}
function blockedLoad(load) {
  if (load.record !== undefined) try { fs.writeFileSync(load.recordFile, recordsHead + load.record + '}}\\n'); } catch {}
  stop(load.line);
}
// The load records' file (told with the head at each load), where a hook that blocks is recorded.
let recordFile = null;
parentPort.on('message', (m) => {
  switch (m.kind) {
    case 'head':
      recordFile = m.recordFile;
      if (m.recordsHead !== undefined) recordsHead = m.recordsHead;
      break;
    case 'load':
      clearTimeout(loadTimer);
      loadTimer = setTimeout(() => blockedLoad(m.load), m.load.limitMs + GRACE_MS);
      break;
    case 'loaded': clearTimeout(loadTimer); loadTimer = null; break;
    case 'beat': lastBeat = Date.now(); blockLimitMs = m.blockLimitMs; break;
    case 'name': names[m.index] = m.call; break;
    case 'start': calls.set(m.id, m.call); break;
    case 'end': calls.delete(m.id); break;
  }
});
function sharedName(at) {
  try {
    const [plugin, callback, entry] = JSON.parse(text(nameBytes, at + 2, nameBytes[at] | (nameBytes[at + 1] << 8)));
    return { plugin, callback, entry };
  } catch {
    return { plugin: 'unknown', callback: 'a callback' };
  }
}
// The callbacks running now: those in the shared slots and those sent as messages.
function running() {
  const out = [...calls.values()];
  for (let slot = 0; slot < slots.length; slot += 1) {
    const code = Atomics.load(slots, slot);
    if (code > 0) out.push(sharedName(code - 1));
    else if (code < 0) out.push(names[-code - 1] || { plugin: 'unknown', callback: 'a callback' });
  }
  return out;
}
// The shared load as last seen: its number, since when (this thread's clock) and its contents.
let seen = { seq: 0, since: 0, load: null };
function watchSharedLoad(now) {
  const seq = Atomics.load(control, ${LOAD_SEQ});
  if (seq === seen.seq) {
    if (seen.load && now - seen.since >= seen.load.limitMs + GRACE_MS) blockedLoad(seen.load);
    return;
  }
  seen = { seq, since: now, load: null };
  if (seq === 0) return;
  try {
    const load = JSON.parse(text(loadBytes, 0, Atomics.load(control, ${LOAD_LENGTH})));
    if (Atomics.load(control, ${LOAD_SEQ}) !== seq) throw new Error('rewritten while read');
    seen.load = load;
  } catch {
    seen.seq = -1; // read again at the next tick
  }
}
let lastTick = Date.now();
setInterval(() => {
  // This thread was held too (the machine slept, the process was stopped): the main thread gets a
  // fresh window instead of being blamed for the time nobody ran.
  const now = Date.now();
  if (now - lastTick > 1000) {
    lastBeat = now;
    seen.since = now;
  }
  lastTick = now;
  watchSharedLoad(now);
  if (!blockLimitMs || loadTimer || Atomics.load(control, ${LOAD_SEQ}) !== 0 || now - lastBeat <= blockLimitMs) return;
  const active = running();
  if (active.length === 0) return;
  const suspects = [...new Set(active.map((c) => 'plugin ' + c.plugin + ' (' + c.callback + ')'))];
  const plugins = [...new Set(active.map((c) => c.plugin))];
  const seconds = Math.round(blockLimitMs / 1000);
  if (recordFile) markBlocked(recordFile, plugins.map((plugin) => active.find((c) => c.plugin === plugin && c.entry) || { plugin }), 'it blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5), so hermes was stopped');
  stop('hermes-rpc: ' + suspects.join(', ') + ' blocked hermes for more than ' + seconds + ' s (plugins.hook_callback_timeout, at least 5); hermes was stopped. The plugin is skipped at the next start until its files change; fix or remove it, or run \`hermes plugins disable ' + plugins[0] + '\`.\\n');
}, 250).unref();
`;
