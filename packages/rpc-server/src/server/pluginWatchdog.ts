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
 * What the thread must know is kept in memory shared with it, not sent to it (watchdogThread.ts has the
 * layout): a message per callback start and end (~3.5 µs each) made five hooks of a tool call 3×
 * dearer, and a load of 100 plugins sent ~300. Each running callback takes a slot of CALL_SLOTS and
 * stores there, with `Atomics`, where its name record is (written once); the running load's plugin,
 * limit and line are rewritten in place for each plugin. Past CALL_SLOTS callbacks at once, or past
 * the regions' sizes, the rest are sent as messages, as before.
 */
import { Worker } from 'node:worker_threads';
import { watchPluginCalls, type BlockedLoad, type CallWatcher, type LoadWatch, type PluginCall } from '@hermes/plugin-host';
import { STARTUP_ERROR_PREFIX } from '../protocol/index.ts';
import { CONTROL_WORDS, LOAD_LENGTH, LOAD_SEQ, WATCHDOG_SOURCE, type WatchedLoad } from './watchdogThread.ts';

const BEAT_MS = 500;
/**
 * A block shorter than this is never stopped, whatever the hook limit: the heartbeat is coarse, and
 * a busy machine or a long garbage collection can hold the thread for a moment.
 */
const MIN_BLOCK_MS = 5000;

/** Plugin callbacks tracked in shared memory at once (more are sent as messages). */
export const CALL_SLOTS = 256;

/** Each plugin's entry file as last loaded, and the slot codes of its callbacks' names (written with that entry). */
type KnownPlugins = Map<string, { entry: string | undefined; codes: Map<string, number> }>;

/** The shared regions' sizes; a test makes them small to reach the messages past them. */
export interface WatchdogSizes {
  callSlots: number;
  /** Bytes for the names of plugin callbacks (each written once). */
  nameBytes: number;
  /** Bytes for the running load's JSON. */
  loadBytes: number;
}

const SIZES: WatchdogSizes = { callSlots: CALL_SLOTS, nameBytes: 64 * 1024, loadBytes: 16 * 1024 };

/**
 * The watchdog: `watch` is handed to the plugin host (loads); `blockLimitMs()` reads the current
 * hook time limit (0: no limit, never stopped for blocking).
 */
export function pluginWatchdog(blockLimitMs: () => number, sizes: Partial<WatchdogSizes> = {}): LoadWatch {
  const { callSlots, nameBytes, loadBytes } = { ...SIZES, ...sizes };
  const limit = () => {
    const ms = blockLimitMs();
    return ms > 0 ? Math.max(ms, MIN_BLOCK_MS) : 0;
  };
  const memory = {
    slots: new SharedArrayBuffer(callSlots * Int32Array.BYTES_PER_ELEMENT),
    control: new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT),
    names: new SharedArrayBuffer(nameBytes),
    load: new SharedArrayBuffer(loadBytes),
  };
  let worker: Worker | null = null;
  /** The thread, started at the first plugin code it must watch. */
  const thread = (): Worker => {
    if (!worker) {
      // Its stdio is not piped to ours (it writes with fs.writeSync): that piping cost ~3 ms to set up.
      worker = new Worker(WATCHDOG_SOURCE, { eval: true, stdout: true, stderr: true, workerData: memory });
      worker.unref();
      // The main thread's heartbeat: it stops while the thread is blocked.
      const beat = () => worker?.postMessage({ kind: 'beat', blockLimitMs: limit() });
      setInterval(beat, BEAT_MS).unref();
      beat();
    }
    return worker;
  };
  const post = (message: object) => thread().postMessage(message);
  const plugins: KnownPlugins = new Map();
  watchPluginCalls(callTable(memory, thread, post, plugins));
  return loadWatch(memory, thread, post, plugins);
}

/**
 * Loads: the running one is written to the shared `load` region (posted only if it does not fit); the
 * records head (large, the same for every plugin of a load) and the records file are posted when they change.
 */
function loadWatch(memory: { control: SharedArrayBuffer; load: SharedArrayBuffer }, thread: () => Worker, post: (message: object) => void, plugins: KnownPlugins): LoadWatch {
  const control = new Int32Array(memory.control);
  const region = new Uint8Array(memory.load);
  let sequence = 0;
  let posted = false;
  const stop = () => {
    Atomics.store(control, LOAD_SEQ, 0);
    if (posted) post({ kind: 'loaded' });
    posted = false;
  };
  let head: { recordFile: string | null; recordsHead: string | undefined } = { recordFile: null, recordsHead: undefined };
  return {
    start(load: BlockedLoad) {
      thread();
      // A plugin (re)loaded from another file: its callbacks' names are written again, naming this one.
      if (load.plugin && load.entry && plugins.get(load.plugin)?.entry !== load.entry) plugins.set(load.plugin, { entry: load.entry, codes: new Map() });
      if (load.recordFile !== head.recordFile || (load.recordsHead !== undefined && load.recordsHead !== head.recordsHead)) {
        head = { recordFile: load.recordFile, recordsHead: load.recordsHead ?? head.recordsHead };
        post({ kind: 'head', ...head });
      }
      const watched: WatchedLoad = {
        plugin: load.plugin,
        entry: load.entry,
        limitMs: load.limitMs,
        recordFile: load.recordFile,
        ...(load.record === undefined ? {} : { record: load.record }),
        line: `${STARTUP_ERROR_PREFIX}${load.message}\n`,
      };
      const bytes = Buffer.from(JSON.stringify(watched));
      Atomics.store(control, LOAD_SEQ, 0);
      if (bytes.length > region.length) {
        posted = true;
        post({ kind: 'load', load: watched });
        return;
      }
      if (posted) stop();
      region.set(bytes);
      Atomics.store(control, LOAD_LENGTH, bytes.length);
      sequence = sequence >= 0x7fffffff ? 1 : sequence + 1;
      Atomics.store(control, LOAD_SEQ, sequence);
    },
    stop,
  };
}

/**
 * Keeps the running plugin callbacks in the shared slots: each holds its callback's name record,
 * written once to the shared `names` region (or, when it does not fit, posted), before its first use.
 * A callback that finds no free slot is sent as start and end messages.
 */
function callTable(memory: { slots: SharedArrayBuffer; names: SharedArrayBuffer }, thread: () => Worker, post: (message: object) => void, plugins: KnownPlugins): CallWatcher {
  const slots = new Int32Array(memory.slots);
  const names = new Uint8Array(memory.names);
  let namesUsed = 0;
  const free = Array.from({ length: slots.length }, (_, i) => slots.length - 1 - i);
  const slotOf = new WeakMap<PluginCall, number>();
  const idOf = new WeakMap<PluginCall, number>();
  let nextId = 0;
  let postedNames = 0;
  const described = (call: PluginCall) => ({ plugin: call.plugin, callback: call.callback, entry: plugins.get(call.plugin)?.entry });
  /** The slot's value for the call's name: 1 + its record's offset in `names`, or −(1 + the index it was posted as). */
  const codeOf = (call: PluginCall): number => {
    let known = plugins.get(call.plugin);
    if (!known) plugins.set(call.plugin, (known = { entry: undefined, codes: new Map() }));
    let code = known.codes.get(call.callback);
    if (code !== undefined) return code;
    const { plugin, callback } = call;
    const entry = known.entry;
    const record = Buffer.from(JSON.stringify([plugin, callback, entry]));
    if (record.length <= 0xffff && namesUsed + 2 + record.length <= names.length) {
      names[namesUsed] = record.length & 0xff;
      names[namesUsed + 1] = record.length >> 8;
      names.set(record, namesUsed + 2);
      code = namesUsed + 1;
      namesUsed += 2 + record.length;
    } else {
      // Posted before the slot is written: should this callback block the thread, its name is on its way.
      post({ kind: 'name', index: postedNames, call: { plugin, callback, entry } });
      code = -(postedNames += 1);
    }
    known.codes.set(callback, code);
    return code;
  };
  return {
    started(call) {
      thread();
      const slot = free.pop();
      if (slot === undefined) {
        const id = (nextId += 1);
        idOf.set(call, id);
        post({ kind: 'start', id, call: described(call) });
        return;
      }
      const code = codeOf(call);
      slotOf.set(call, slot);
      // After the name's bytes: the thread that reads this slot sees them.
      Atomics.store(slots, slot, code);
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
