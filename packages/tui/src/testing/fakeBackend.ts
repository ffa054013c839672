/**
 * A stand-in backend for controller and pty tests: speaks the hermes NDJSON protocol from a few canned
 * rules. Every frame it writes is typed against the protocol (`MethodMap`, `EventPayloads`,
 * `ServerRequestMap`), so a contract change that the fake no longer meets fails the typecheck instead
 * of drifting. Spawned as `HERMES_RPC_ENTRY`; `backendCommand` runs a `.ts` entry through tsx.
 */
import { createInterface } from 'node:readline';
import {
  ErrorCode,
  EVENT_METHOD,
  PROTOCOL_VERSION,
  SERVER_REQUEST_ID_PREFIX,
  type CommandDescriptor,
  type CommandDirective,
  type EventPayloads,
  type EventType,
  type Method,
  type ParamsOf,
  type ResultOf,
  type ServerRequest,
  type ServerRequestMap,
  type SessionInfo,
  type Usage,
} from '@hermes/rpc-server/protocol';

const SESSION = 'sess-1';
const VERSION = '0.0.0-fake';
/** The session the last prompt went to: slash commands can switch the client to another one. */
let current = SESSION;
let seq = 0;
const send = (message: object) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
function event<K extends EventType>(type: K, payload: EventPayloads[K], sessionId: string | undefined = current): void {
  send({ method: EVENT_METHOD, params: { type, ...(sessionId === undefined ? {} : { session_id: sessionId, seq: ++seq }), payload } });
}
const usage: Usage = { model: 'fake', input: 1, output: 2, reasoning: 0, total: 3, calls: 1 };
const info: SessionInfo = {
  model: 'fake-model', provider: 'fake', cwd: process.cwd(), title: null, stored_session_id: 'stored-1',
  toolsets: {}, approval_mode: 'manual', yolo: false, plugin_count: 0, usage, version: VERSION,
};

event('gateway.ready', { version: VERSION, protocol: PROTOCOL_VERSION, pid: process.pid }, undefined);

/** The client's answer to a server request: its result, or an error. */
type Reply<R extends ServerRequest> = { result: ServerRequestMap[R]['result']; error?: undefined } | { result?: undefined; error: { code: number } };

// Server→client requests (approval, clarify, secret): ids `srq-N`, answers matched by id.
let requests = 0;
const answers = new Map<string, (reply: Reply<ServerRequest>) => void>();
const answered: string[] = [];
function ask<R extends ServerRequest>(method: R, params: Omit<ServerRequestMap[R]['params'], 'session_id' | 'request_id'>) {
  const id = `${SERVER_REQUEST_ID_PREFIX}${++requests}`;
  send({ id, method, params: { session_id: current, ...params, request_id: id } });
  return { id, reply: new Promise<Reply<R>>((resolve) => answers.set(id, resolve as (reply: Reply<ServerRequest>) => void)) };
}
function describe(reply: Reply<ServerRequest>): string {
  if (reply.error) return `error ${reply.error.code}`;
  const result = reply.result;
  if ('choice' in result) return result.choice;
  return JSON.stringify('answer' in result ? result.answer : result);
}
/** A `stream-long` turn is running. */
let streaming = false;
/** The last prompt sent, for /undo and /retry. */
let lastPrompt = '';

const CATALOG: CommandDescriptor[] = [
  { name: 'help', aliases: [], description: 'Show the commands', category: 'info', args_hint: '[filter]', source: 'builtin' },
  { name: 'history', aliases: [], description: 'Show the conversation', category: 'info', args_hint: '', source: 'builtin' },
  { name: 'new', aliases: ['reset'], description: 'Start a new session', category: 'session', args_hint: '[name]', source: 'builtin' },
  { name: 'stop', aliases: [], description: 'Interrupt the running turn', category: 'session', args_hint: '', source: 'builtin' },
  { name: 'undo', aliases: [], description: 'Drop the last turn', category: 'session', args_hint: '[N]', source: 'builtin' },
  { name: 'greet', aliases: [], description: 'Say hello (plugin)', category: 'greeter', args_hint: '', source: 'greeter' },
];

/** A method's answer: its result, or a JSON-RPC error. */
type Answer<M extends Method> = { result: ResultOf<M> } | { error: { code: number; message: string } };

/**
 * Deliberately outside the contract: a directive from a newer backend, which this TUI must skip while
 * still showing the command's output.
 */
const FUTURE_DIRECTIVE = { type: 'teleport' } as unknown as CommandDirective;

function slashExec(command: string): Answer<'slash.exec'> {
  const [word = '', ...rest] = command.replace(/^\//, '').split(' ');
  const args = rest.join(' ').trim();
  switch (word.toLowerCase()) {
    case 'help':
      return { result: { output: CATALOG.map((c) => `/${c.name}  ${c.description}`).join('\n') } };
    case 'greet':
      return { result: { output: 'hello from the greeter plugin' } };
    case 'stop':
      if (!streaming) return { result: { output: 'Nothing to stop.' } };
      streaming = false;
      event('message.complete', { text: 'a long reply that keeps going', status: 'interrupted', usage });
      return { result: { output: 'Interrupted the running turn.' } };
    case 'compress':
      if (streaming) return { error: { code: ErrorCode.SessionBusy, message: "/compress can't run while a turn is running" } };
      return { result: { output: 'Nothing to compress yet.' } };
    case 'undo':
      if (!lastPrompt) return { result: { warning: 'Nothing to undo.' } };
      return { result: { output: 'Removed 1 turn.', directive: { type: 'prefill', text: lastPrompt } } };
    case 'retry':
      return { result: { directive: { type: 'send', message: lastPrompt } } };
    case 'new':
      // The new session's info goes out before the answer, as the backend may do.
      event('session.info', { ...info, stored_session_id: 'stored-2', title: args || null }, 'sess-2');
      return { result: { output: 'Started a new session.', directive: { type: 'new', session_id: 'sess-2', clear: false } } };
    case 'branch':
      // ...and here after it.
      setTimeout(() => event('session.info', { ...info, stored_session_id: 'stored-3', title: args || null }, 'sess-3'), 20);
      return { result: { output: 'Branched.', directive: { type: 'resume', session_id: 'sess-3' } } };
    case 'model':
      return { result: { output: 'Model: fake-model', directive: { type: 'picker', picker: 'model' } } };
    case 'future':
      return { result: { output: 'from a newer backend', directive: FUTURE_DIRECTIVE } };
    case 'quit':
    case 'exit':
      return { result: { exit: true } };
  }
  return { error: { code: ErrorCode.NotACommand, message: `/${word} is not a command. Did you mean /help?` } };
}

/** What the interrupt should withdraw, if anything. */
let withdrawable: string | undefined;

const DIFF = '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n-old line\n+new line\n context\n';
type ApprovalAsk = Omit<ServerRequestMap['approval']['params'], 'session_id' | 'request_id'>;
const approval = (command: string, extra: Partial<ApprovalAsk> = {}): ApprovalAsk => ({
  tool_name: 'terminal', command, description: 'recursive delete', choices: ['once', 'session', 'always', 'deny'],
  findings: [{ level: 'dangerous', rule: 'delete.recursive', target: 'working tree', why: `recursive delete: ${command}`, line: 1 }],
  ...extra,
});
/** Two findings, one hardline, and a quote that only looks like one. */
const LOOKALIKE: Pick<ApprovalAsk, 'command' | 'findings'> = {
  command: 'echo ＇; rm -rf ~/.ssh; echo ＇',
  findings: [
    { level: 'hardline', rule: 'delete.recursive', target: '~/.ssh', why: 'deletes ~/.ssh and everything in it', line: 1 },
    { level: 'dangerous', rule: 'shell.lookalike', target: 'command line', why: 'uses ＇ (U+FF07), which the shell does not treat as a quote', line: 1 },
  ],
};

/** Runs one tool call behind an approval and reports the choice as the reply. */
async function approvedTool(command: string, toolId: string, extra?: Partial<ApprovalAsk>): Promise<string> {
  event('tool.start', { tool_id: toolId, name: 'terminal', context: command });
  const choice = describe(await ask('approval', approval(command, extra)).reply);
  const done = { tool_id: toolId, name: 'terminal' };
  if (choice === 'once' || choice === 'session' || choice === 'always')
    event('tool.complete', { ...done, duration_s: 0.25, summary: 'exit 0', result: 'exit 0', ...(extra?.diff ? { inline_diff: extra.diff } : {}) });
  else {
    const denied = 'the user denied this command';
    event('tool.complete', { ...done, duration_s: 0, summary: denied, result: denied, error: denied, blocked: true });
  }
  return choice;
}

function reply(text: string): void {
  event('message.delta', { text });
  event('message.complete', { text, status: 'complete', usage });
}

/** The scripted turns that ask the user something; false when `text` is an ordinary prompt. */
function promptTurn(text: string): boolean {
  const [word, ...rest] = text.split(' ');
  const argument = rest.join(' ');
  const replyWith = (label: string) => (choice: string) => reply(`${label}: ${choice}`);
  switch (word) {
    case 'approve':
      void approvedTool(argument || 'rm -rf build', 't1').then(replyWith('approval'));
      return true;
    case 'approve-diff':
      void approvedTool('patch notes.txt', 't1', {
        diff: DIFF,
        description: 'overwrites a file',
        findings: [{ level: 'dangerous', rule: 'write.overwrite', target: 'working tree', why: 'overwrites a file: notes.txt', line: 1 }],
      }).then(replyWith('approval'));
      return true;
    case 'approve-lookalike':
      void approvedTool(LOOKALIKE.command, 't1', { description: 'deletes ~/.ssh', findings: LOOKALIKE.findings }).then(replyWith('approval'));
      return true;
    case 'approve-long': {
      const command = Array.from({ length: 30 }, (_, i) => `echo step-${i + 1} && sleep 0`).join(' && ');
      void approvedTool(command, 't1').then(replyWith('approval'));
      return true;
    }
    case 'approve-slow':
      // Time for a test to type a draft while the turn runs, before the card takes the keyboard.
      event('tool.start', { tool_id: 't0', name: 'read_file', context: 'warming up' });
      setTimeout(() => {
        event('tool.complete', { tool_id: 't0', name: 'read_file', duration_s: 1, summary: 'read 1 line', result: 'warm' });
        void approvedTool('rm -rf slow', 't1').then(replyWith('approval'));
      }, 1_500);
      return true;
    case 'approve-two':
      void Promise.all([approvedTool('rm -rf first', 't1'), approvedTool('rm -rf second', 't2')]).then((choices) => reply(`approvals: ${choices.join(', ')}`));
      return true;
    case 'approve-withdrawn': {
      event('tool.start', { tool_id: 't1', name: 'terminal', context: 'rm -rf slow' });
      const request = ask('approval', approval('rm -rf slow'));
      withdrawable = request.id;
      void request.reply.then((response) => answered.push(`${request.id}=${describe(response)}`));
      return true;
    }
    case 'clarify':
    case 'clarify-free': {
      const params = word === 'clarify' ? { question: 'Which colour?', choices: ['red', 'blue'] } : { question: 'What name?' };
      void ask('clarify', params).reply.then((response) => reply(`clarify: ${describe(response)}`));
      return true;
    }
    case 'secret':
      void ask('secret', { env_var: 'API_KEY', prompt: 'key?' }).reply.then((response) => reply(`secret: ${describe(response)}`));
      return true;
    case 'stream-long':
      // Streams until /stop (slash.exec) or an interrupt ends it.
      event('message.delta', { text: 'a long reply that keeps going' });
      streaming = true;
      return true;
    case 'answers':
      // The answers the client sent to withdrawn requests, which no turn reported.
      reply(`answers: ${answered.join(', ') || 'none'}`);
      return true;
  }
  return false;
}

/** Answers request `id` to `method`; the answer is typed by the method's result in `MethodMap`. */
const answer = <M extends Method>(id: string | number, _method: M, response: Answer<M>) => send({ id, ...response });

/** Each method the fake knows; nothing is answered for a handler that returns nothing (it answers later, or exits). */
const handlers: { [M in Method]?: (params: ParamsOf<M>, id: string | number) => Answer<M> | undefined } = {
  'commands.catalog': () => ({ result: { commands: CATALOG } }),
  'complete.slash': (params, id) => {
    const word = params.text.slice(1).toLowerCase();
    const items = CATALOG.filter((c) => c.name.startsWith(word)).map((c) => ({ text: `/${c.name}`, display: `/${c.name}`, meta: c.description }));
    // `/h…` answers late, so a test can type past it.
    setTimeout(() => answer(id, 'complete.slash', { result: { items, replace_from: 0 } }), params.text === '/h' ? 300 : 0);
    return undefined;
  },
  'slash.exec': (params) => {
    if (params.command === '/crash') process.exit(3);
    return slashExec(params.command);
  },
  'session.history': () => ({ result: { count: 0, messages: [] } }),
  'session.close': () => ({ result: { closed: true } }),
  'session.interrupt': () => {
    if (streaming) {
      streaming = false;
      event('message.complete', { text: 'a long reply that keeps going', status: 'interrupted', usage });
      return { result: { status: 'interrupted' } };
    }
    if (!withdrawable) return { result: { status: 'not_interrupted' } };
    event('request.cancel', { id: withdrawable, method: 'approval', reason: 'interrupted' });
    event('tool.complete', { tool_id: 't1', name: 'terminal', duration_s: 0, summary: 'interrupted', result: 'interrupted', error: 'interrupted', blocked: true });
    event('message.complete', { text: '', status: 'interrupted', usage });
    withdrawable = undefined;
    return { result: { status: 'interrupted' } };
  },
  'session.create': (_params, id) => {
    // An event of the new session sent before the response: the client must not drop it.
    event('session.title', { title: 'early title' });
    event('error', { message: 'plugin "broken" failed to load' });
    // Another session's event, also before the response: the client cannot tell yet that it is foreign.
    event('error', { message: 'not yours' }, 'other');
    answer(id, 'session.create', { result: { session_id: SESSION, stored_session_id: 'stored-1', message_count: 0, messages: [], info } });
    event('error', { message: 'not yours either' }, 'other');
    return undefined;
  },
  // A restarted backend resuming the stored session its predecessor had open.
  'session.resume': (params) => ({
    result: { session_id: SESSION, stored_session_id: params.session_id, message_count: 0, messages: [], info: { ...info, stored_session_id: params.session_id } },
  }),
  'prompt.submit': (params, id) => submit(params, id),
  'shell.exec': (params) => {
    if (params.command === 'crash') process.exit(3);
    return { result: { stdout: `ran: ${params.command}\n`, stderr: '', code: 0 } };
  },
  'config.set': (params) => {
    if (params.key !== 'yolo') return { error: { code: ErrorCode.UsageError, message: `the fake backend sets only yolo, not ${params.key}` } };
    info.yolo = params.value === true;
    event('session.info', info);
    return { result: { key: 'yolo', value: info.yolo, ...(info.yolo ? { warning: 'yolo is on: fake warning' } : {}) } };
  },
};

function submit(params: ParamsOf<'prompt.submit'>, id: string | number): Answer<'prompt.submit'> | undefined {
  const streamingNow = () => answer(id, 'prompt.submit', { result: { status: 'streaming' } });
  switch (params.text) {
    case 'crash':
      process.stderr.write('fatal: the fake backend crashed on purpose\n');
      process.exit(3);
    case 'crash-mid-reply':
      streamingNow();
      event('message.start', undefined);
      event('message.delta', { text: 'a partial reply' });
      // Exits once the frames above are flushed, as a backend killed mid-stream does.
      process.stderr.write('fatal: the fake backend crashed mid-reply\n', () => process.exit(3));
      return undefined;
    case 'close-output':
      // Alive but deaf: nothing it writes can reach the client any more; it exits when its stdin closes.
      streamingNow();
      process.stdout.end();
      return undefined;
    case 'nomodel':
      return { error: { code: ErrorCode.AgentUnavailable, message: 'no model configured: set model.provider' } };
  }
  current = params.session_id;
  lastPrompt = params.text;
  streamingNow();
  event('message.start', undefined);
  if (promptTurn(params.text)) return undefined;
  event('message.delta', { text: 'echo: ' });
  event('message.delta', { text: params.text });
  event('message.complete', { text: `echo: ${params.text}`, status: 'complete', usage });
  return undefined;
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line) as { id?: string | number; method?: string; params?: unknown };
  const { id, method } = message;
  if (method === undefined && typeof id === 'string' && answers.has(id)) {
    answers.get(id)!(message as Reply<ServerRequest>);
    answers.delete(id);
    return;
  }
  const handler = handlers[method as Method] as ((params: unknown, id: string | number) => Answer<Method> | undefined) | undefined;
  if (id === undefined) return;
  if (!handler) return send({ id, error: { code: ErrorCode.MethodNotFound, message: `unknown method ${method}` } });
  const response = handler(message.params, id);
  if (response) send({ id, ...response });
});
lines.on('close', () => process.exit(0));
