/**
 * Key echo in the composer: bytes written per keystroke, the TUI's CPU time per keystroke, and the time
 * from a key written to the pty to the chunk that shows it on the emulated screen (p95 per run, the
 * figure is the median of the runs). Three conditions: a fresh session, a resumed long session, and
 * while a long reply streams slowly. The floor is a bundled Ink text input (Ink's incremental
 * rendering, scripts/bench/lib/inkFloor.ts) measured the same way, interleaved. Below Ink, a raw-mode
 * echo in plain Node (no React, no layout) gives what the pty, the emulator and the harness cost
 * alone: the Ink floor's echo over it is Ink's own share of a key.
 *
 *   npm run build && node --import tsx scripts/bench/keys.ts [--quick] [--runs N]
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { startModelServer, type ModelServer } from '../model-server/index.ts';
import { tempDir } from '../testing/tempDirs.ts';
import { INK_FLOOR_PROMPT, inkFloorScript } from './lib/inkFloor.ts';
import { messageMark, sessionHome } from './lib/sessionHome.ts';
import { HERMES_BIN, isEntry, runAlone, type Bench, type Figure } from './lib/figures.ts';
import { spawnInPty, ptyEnv, type PtyScreen } from './lib/ptyScreen.ts';
import { cpuMs, interleaved, median, p95 } from './lib/samples.ts';

/** The word typed each round, one key at a time, then deleted with Backspace (a quick run types fewer keys). */
const WORD = 'quickbrownfox';
const QUICK_WORD = 'qui';
/** A typist's pause after a key has shown: bursts of fast typing come ~50 ms apart. */
const KEY_GAP_MS = 50;
/** The targets. */
const MAX_BYTES_PER_KEY = 100;
const MAX_ECHO_P95_MS = 5;

/** What a program's prompt row shows as typed: the text after `mark` on the last row holding it (hermes's status line is below it). */
type PromptText = (screen: string) => string | undefined;

function promptText(mark: string, end = ''): PromptText {
  return (screen) => {
    const rows = screen.split('\n');
    for (let at = rows.length - 1; at >= 0; at -= 1) {
      const from = rows[at]!.indexOf(mark);
      if (from < 0) continue;
      const text = rows[at]!.slice(from + mark.length);
      return (end && text.endsWith(end) ? text.slice(0, -end.length) : text).trimEnd();
    }
    return undefined;
  };
}

const hermesPrompt = promptText('❯ ');
/** The floor draws its prompt in a rounded box: `│ ink-floor> typed │`. */
const floorPrompt = promptText(INK_FLOOR_PROMPT, '│');

interface Round {
  /** Echo time per key, ms. */
  echo: number[];
  bytes: number;
  /** The program's CPU time over the round, ms (10 ms ticks: summed over rounds, not per round). */
  cpu: number;
  keys: number;
}

/**
 * Types `word` key by key into an open composer, then deletes it with Backspace key by key, timing each
 * key from its write to the chunk that shows it; so the next round starts from an empty prompt.
 */
async function typeRound(term: PtyScreen, composerText: PromptText, word: string): Promise<Round> {
  const echo: number[] = [];
  const before = term.bytesWritten();
  const cpuBefore = cpuMs(term.pid);
  const key = async (data: string, want: string) => {
    const sent = term.elapsed();
    term.write(data);
    // An empty draft shows a placeholder (hermes) or nothing (the floor).
    const shows = (text: string | undefined) => (want === '' ? text !== undefined && !text.startsWith(word[0]!) : text === want);
    const shown = await term.waitFor((screen) => shows(composerText(screen)), 10_000, `"${want}" in the composer`);
    echo.push(shown - sent);
    await sleep(KEY_GAP_MS);
  };
  for (let at = 1; at <= word.length; at += 1) await key(word[at - 1]!, word.slice(0, at));
  for (let at = word.length - 1; at >= 0; at -= 1) await key('\x7f', word.slice(0, at));
  return { echo, bytes: (term.bytesWritten() - before) / (2 * word.length), cpu: cpuMs(term.pid) - cpuBefore, keys: 2 * word.length };
}

/** A program kept open across rounds, so a round times keys, not starts. */
interface Subject {
  round(): Promise<Round>;
  close(): Promise<void>;
}

async function hermesSubject(options: { word: string; server: ModelServer; home?: string; args?: string[]; stream?: boolean; lastMessage?: string }): Promise<Subject> {
  const home = options.home ?? tempDir('hermes-bench-keys-');
  const term = spawnInPty(process.execPath, [HERMES_BIN, '--tui', '--provider', 'custom', '--base-url', options.server.baseUrl, '--model', 'scripted-model', ...(options.args ?? [])], {
    env: ptyEnv({ HERMES_HOME: home, OPENAI_API_KEY: undefined, HERMES_MODEL: undefined, HERMES_PROVIDER: undefined, HERMES_BASE_URL: undefined }),
    cols: 100,
    rows: 30,
  });
  await term.waitFor((screen) => screen.includes('Ask hermes anything'), 120_000, 'the prompt');
  // A resumed session: keys are timed once its transcript is printed (an old build takes seconds to).
  const last = options.lastMessage;
  if (last) await term.waitFor((screen) => new RegExp(`${last}\\b`).test(screen), 300_000, `message ${last} on screen`);
  // Keys typed while the start's own work (a resumed transcript, first renders) finishes would time that work.
  await settle(term);
  if (options.stream) {
    term.write('stream please');
    await term.waitFor((screen) => hermesPrompt(screen) === 'stream please', 10_000, 'the prompt typed');
    term.write('\r');
    await term.waitFor((screen) => screen.includes('streaming line 3 '), 20_000, 'the reply streaming');
  }
  return {
    async round() {
      const round = await typeRound(term, hermesPrompt, options.word);
      // With the draft empty again the placeholder says whether the reply was still streaming throughout.
      if (options.stream && !term.screen().includes('hermes is answering')) throw new Error(`the reply stopped streaming before the round ended; the screen shows:\n${term.screen()}`);
      return round;
    },
    close: () => term.kill(),
  };
}

/** Waits until the program has written nothing for a moment (at most 5 s). */
async function settle(term: PtyScreen): Promise<void> {
  const until = Date.now() + 5_000;
  let bytes = -1;
  while (bytes !== term.bytesWritten() && Date.now() < until) {
    bytes = term.bytesWritten();
    await sleep(300);
  }
}

/** The floor: Ink's own incremental renderer on a one-line prompt, bundled like hermes. */
async function floorSubject(word: string): Promise<Subject> {
  const term = spawnInPty(process.execPath, [await inkFloorScript(), '--incremental'], { env: ptyEnv(), cols: 100, rows: 30 });
  await term.waitFor((screen) => floorPrompt(screen) === '', 20_000, 'the floor prompt');
  await settle(term);
  return { round: () => typeRound(term, floorPrompt, word), close: () => term.kill() };
}

/** A line editor in plain Node: raw mode, each key redraws the prompt row; what a key costs without Ink. */
const RAW_ECHO_PROMPT = 'raw-echo> ';
const RAW_ECHO_SCRIPT = `
let text = '';
const draw = () => process.stdout.write('\\r\\x1b[2K' + ${JSON.stringify(RAW_ECHO_PROMPT)} + text);
process.stdin.setRawMode(true);
process.stdin.on('data', (data) => {
  for (const key of data.toString('utf8')) {
    if (key === '\\x03') process.exit(0);
    text = key === '\\x7f' ? text.slice(0, -1) : text + key;
  }
  draw();
});
draw();
`;

async function rawEchoSubject(word: string): Promise<Subject> {
  const term = spawnInPty(process.execPath, ['-e', RAW_ECHO_SCRIPT], { env: ptyEnv(), cols: 100, rows: 30 });
  const prompt = promptText(RAW_ECHO_PROMPT);
  await term.waitFor((screen) => prompt(screen) === '', 20_000, 'the raw echo prompt');
  return { round: () => typeRound(term, prompt, word), close: () => term.kill() };
}

/** A long reply in small deltas (~4 minutes of them), slow enough to outlast every round. */
function streamingServer(): Promise<ModelServer> {
  const text = Array.from({ length: 12_000 }, (_, line) => `streaming line ${line} of a long answer that keeps coming.\n`).join('');
  return startModelServer({ loop: true, turns: [{ text, chunk_size: 12, chunk_delay_ms: 4 }] });
}

/** The figure of a condition: the p95 echo of each round (run), median of the runs. */
const echoP95 = (of: Round[]) => median(of.map((r) => p95(r.echo)));

function figures(label: string, rounds: Round[], floor: Round[], runs: number, withBytes: boolean): Figure[] {
  const out: Figure[] = [];
  const floorLabel = 'Ink hello-world, incremental';
  const bytes = (of: Round[]) => median(of.map((r) => r.bytes));
  const echo = echoP95;
  // Ticks of 10 ms are too coarse for one round: CPU is summed over all rounds, then divided by the keys.
  const cpu = (of: Round[]) => of.reduce((sum, r) => sum + r.cpu, 0) / of.reduce((sum, r) => sum + r.keys, 0);
  if (withBytes) out.push({ name: `keys: bytes per keystroke, ${label}`, unit: 'B', ours: bytes(rounds), floor: { label: floorLabel, value: bytes(floor) }, target: { max: MAX_BYTES_PER_KEY }, runs });
  // Not timed by the wall clock, so a loaded machine does not move it; during a stream the reply's work is in it too.
  if (withBytes) out.push({ name: `keys: TUI CPU per keystroke, ${label}`, unit: 'ms', ours: cpu(rounds), floor: { label: floorLabel, value: cpu(floor) }, target: {}, runs, note: 'all rounds summed, / keys' });
  out.push({ name: `keys: echo p95, ${label}`, unit: 'ms', ours: echo(rounds), floor: { label: floorLabel, value: echo(floor) }, target: { max: MAX_ECHO_P95_MS }, runs, note: `p95 of ${rounds[0]?.keys} keys a run (typed, then deleted), median of runs` });
  return out;
}

export const bench: Bench = async ({ runs, quick }) => {
  // A quick run resumes a shorter session: an old build (a "before" table) takes ~13 s to resume 10,000.
  const messages = quick ? 2_000 : 10_000;
  const word = quick ? QUICK_WORD : WORD;
  const stored = await sessionHome(messages);
  // A copy: hermes writes its log and history into its home, and the cached one stays as built.
  const resumeHome = tempDir('hermes-bench-keys-resume-');
  fs.cpSync(stored.home, resumeHome, { recursive: true });
  const idleServer = await startModelServer({ loop: true, turns: [{ text: 'ok' }] });
  const streamServer = await streamingServer();
  // Started side by side; each is measured only once all are up.
  const started = await Promise.allSettled([
    rawEchoSubject(word),
    floorSubject(word),
    hermesSubject({ word, server: idleServer }),
    hermesSubject({ word, server: idleServer, home: resumeHome, args: ['--resume', stored.sessionId], lastMessage: messageMark(messages) }),
    hermesSubject({ word, server: streamServer, stream: true }),
  ]);
  const up = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  try {
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const [raw, floor, fresh, resumed, stream] = up as [Subject, Subject, Subject, Subject, Subject];
    const subjects = { raw, floor, fresh, resumed, stream };
    const rounds = { raw: [] as Round[], floor: [] as Round[], fresh: [] as Round[], resumed: [] as Round[], stream: [] as Round[] };
    const measure = (key: keyof typeof rounds) => async () => {
      rounds[key].push(await subjects[key].round());
      return 0;
    };
    await interleaved(runs, { raw: measure('raw'), floor: measure('floor'), fresh: measure('fresh'), resumed: measure('resumed'), stream: measure('stream') });
    return [
      {
        name: 'keys: echo p95, Ink hello-world (incremental)',
        unit: 'ms',
        ours: echoP95(rounds.floor),
        floor: { label: 'raw-mode echo in plain Node, no Ink', value: echoP95(rounds.raw) },
        target: {},
        runs,
        note: 'what Ink itself adds to a key: the pty, the emulator and the harness are in the floor',
      },
      ...figures('fresh session', rounds.fresh, rounds.floor, runs, true),
      ...figures(`resumed ${messages.toLocaleString('en')}-message session`, rounds.resumed, rounds.floor, runs, true),
      // During a stream the reply's own output shares the terminal, so bytes per key say nothing there.
      ...figures('during a stream', rounds.stream, rounds.floor, runs, false),
    ];
  } finally {
    for (const subject of up) await subject.close();
    await idleServer.close();
    await streamServer.close();
  }
};

if (isEntry(import.meta.url)) await runAlone(bench);
