// A stand-in backend for controller tests: speaks the hermes NDJSON protocol from a few canned rules.
// Plain JavaScript so it runs with `node` directly, as the real backend's bundle does.
import { createInterface } from 'node:readline';

const SESSION = 'sess-1';
/** The session the last prompt went to: slash commands can switch the client to another one. */
let current = SESSION;
let seq = 0;
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const event = (type, payload, sessionId = current) => send({ method: 'event', params: { type, session_id: sessionId, seq: ++seq, payload } });
const usage = { model: 'fake', input: 1, output: 2, reasoning: 0, total: 3, calls: 1 };
const info = {
  model: 'fake-model', provider: 'fake', cwd: process.cwd(), title: null, stored_session_id: 'stored-1',
  toolsets: {}, approval_mode: 'manual', yolo: false, plugin_count: 0, usage, version: '0.0.0-fake',
};

send({ method: 'event', params: { type: 'gateway.ready', payload: { version: '0.0.0-fake', protocol: 1, pid: process.pid } } });

// Server→client requests (approval, clarify, secret): ids `srq-N`, answers matched by id.
let requests = 0;
const answers = new Map();
const answered = [];
function ask(method, params) {
  const id = `srq-${++requests}`;
  send({ id, method, params: { session_id: current, ...params, request_id: id } });
  return { id, reply: new Promise((resolve) => answers.set(id, resolve)) };
}
const describe = (response) =>
  response.error ? `error ${response.error.code}` : (response.result.choice ?? JSON.stringify(response.result.answer ?? response.result));
/** A `stream-long` turn is running. */
let streaming = false;
/** The last prompt sent, for /undo and /retry. */
let lastPrompt = '';

const CATALOG = [
  { name: 'help', aliases: [], description: 'Show the commands', category: 'info', args_hint: '[filter]', source: 'builtin' },
  { name: 'history', aliases: [], description: 'Show the conversation', category: 'info', args_hint: '', source: 'builtin' },
  { name: 'new', aliases: ['reset'], description: 'Start a new session', category: 'session', args_hint: '[name]', source: 'builtin' },
  { name: 'stop', aliases: [], description: 'Interrupt the running turn', category: 'session', args_hint: '', source: 'builtin' },
  { name: 'undo', aliases: [], description: 'Drop the last turn', category: 'session', args_hint: '[N]', source: 'builtin' },
  { name: 'greet', aliases: [], description: 'Say hello (plugin)', category: 'greeter', args_hint: '', source: 'greeter' },
];

/** The answer to `slash.exec`: a result, or an error `{ code, message }`. */
function slashExec(command) {
  const [word, ...rest] = command.replace(/^\//, '').split(' ');
  const args = rest.join(' ').trim();
  switch (word.toLowerCase()) {
    case 'help':
      return { result: { output: CATALOG.map((c) => `/${c.name}  ${c.description}`).join('\n') } };
    case 'greet':
      return { result: { output: 'hello from the greeter plugin' } };
    case 'stop':
      if (!streaming) return { result: { output: 'Nothing to stop.' } };
      streaming = false;
      event('message.complete', { text: 'a long reply that keeps going', status: 'interrupted' });
      return { result: { output: 'Interrupted the running turn.' } };
    case 'compress':
      if (streaming) return { error: { code: 4009, message: "/compress can't run while a turn is running" } };
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
      return { result: { output: 'from a newer backend', directive: { type: 'teleport' } } };
    case 'quit':
    case 'exit':
      return { result: { exit: true } };
  }
  return { error: { code: 4018, message: `/${word} is not a command. Did you mean /help?` } };
}

/** What the interrupt should withdraw, if anything. */
let withdrawable;

const DIFF = '--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n-old line\n+new line\n context\n';
const approval = (command, extra = {}) => ({
  tool_name: 'terminal', command, description: 'recursive delete', choices: ['once', 'session', 'always', 'deny'],
  findings: [{ level: 'dangerous', rule: 'delete.recursive', target: 'working tree', why: `recursive delete: ${command}`, line: 1 }],
  ...extra,
});
/** Two findings, one hardline, and a quote that only looks like one. */
const LOOKALIKE = {
  command: 'echo ＇; rm -rf ~/.ssh; echo ＇',
  findings: [
    { level: 'hardline', rule: 'delete.recursive', target: '~/.ssh', why: 'deletes ~/.ssh and everything in it', line: 1 },
    { level: 'dangerous', rule: 'shell.lookalike', target: 'command line', why: 'uses ＇ (U+FF07), which the shell does not treat as a quote', line: 1 },
  ],
};

/** Runs one tool call behind an approval and reports the choice as the reply. */
async function approvedTool(command, toolId, extra) {
  event('tool.start', { tool_id: toolId, name: 'terminal', context: command });
  const response = await ask('approval', approval(command, extra)).reply;
  const choice = describe(response);
  if (choice === 'once' || choice === 'session' || choice === 'always')
    event('tool.complete', { tool_id: toolId, name: 'terminal', duration_s: 0.25, summary: 'exit 0', inline_diff: extra?.diff });
  else event('tool.complete', { tool_id: toolId, name: 'terminal', duration_s: 0, error: 'the user denied this command', blocked: true });
  return choice;
}

function reply(text) {
  event('message.delta', { text });
  event('message.complete', { text, status: 'complete', usage });
}

/** The scripted turns that ask the user something; false when `text` is an ordinary prompt. */
function promptTurn(text) {
  const [word, ...rest] = text.split(' ');
  const argument = rest.join(' ');
  switch (word) {
    case 'approve':
      void approvedTool(argument || 'rm -rf build', 't1').then((choice) => reply(`approval: ${choice}`));
      return true;
    case 'approve-diff':
      void approvedTool('patch notes.txt', 't1', {
        diff: DIFF,
        description: 'overwrites a file',
        findings: [{ level: 'dangerous', rule: 'write.overwrite', target: 'working tree', why: 'overwrites a file: notes.txt', line: 1 }],
      }).then((choice) => reply(`approval: ${choice}`));
      return true;
    case 'approve-lookalike':
      void approvedTool(LOOKALIKE.command, 't1', { description: 'deletes ~/.ssh', findings: LOOKALIKE.findings }).then((choice) =>
        reply(`approval: ${choice}`),
      );
      return true;
    case 'approve-long': {
      const command = Array.from({ length: 30 }, (_, i) => `echo step-${i + 1} && sleep 0`).join(' && ');
      void approvedTool(command, 't1').then((choice) => reply(`approval: ${choice}`));
      return true;
    }
    case 'approve-slow':
      // Time for a test to type a draft while the turn runs, before the card takes the keyboard.
      event('tool.start', { tool_id: 't0', name: 'read_file', context: 'warming up' });
      setTimeout(() => {
        event('tool.complete', { tool_id: 't0', name: 'read_file', duration_s: 1 });
        void approvedTool('rm -rf slow', 't1').then((choice) => reply(`approval: ${choice}`));
      }, 1_500);
      return true;
    case 'approve-two':
      void Promise.all([approvedTool('rm -rf first', 't1'), approvedTool('rm -rf second', 't2')]).then((choices) =>
        reply(`approvals: ${choices.join(', ')}`),
      );
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

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (method === undefined && answers.has(id)) {
    answers.get(id)(message);
    answers.delete(id);
    return;
  }
  if (method === 'commands.catalog') {
    send({ id, result: { commands: CATALOG } });
    return;
  }
  if (method === 'complete.slash') {
    const word = params.text.slice(1).toLowerCase();
    const items = CATALOG.filter((c) => c.name.startsWith(word)).map((c) => ({ text: `/${c.name}`, display: `/${c.name}`, meta: c.description }));
    // `/h…` answers late, so a test can type past it.
    setTimeout(() => send({ id, result: { items, replace_from: 0 } }), params.text === '/h' ? 300 : 0);
    return;
  }
  if (method === 'slash.exec') {
    if (params.command === '/crash') process.exit(3);
    send({ id, ...slashExec(params.command) });
    return;
  }
  if (method === 'session.history') {
    send({ id, result: { count: 0, messages: [] } });
    return;
  }
  if (method === 'session.close') {
    send({ id, result: { closed: true } });
    return;
  }
  if (method === 'session.interrupt') {
    if (streaming) {
      streaming = false;
      event('message.complete', { text: 'a long reply that keeps going', status: 'interrupted' });
      send({ id, result: { status: 'interrupted' } });
    } else if (withdrawable) {
      event('request.cancel', { id: withdrawable, method: 'approval', reason: 'interrupted' });
      event('tool.complete', { tool_id: 't1', name: 'terminal', duration_s: 0, error: 'interrupted', blocked: true });
      event('message.complete', { text: '', status: 'interrupted' });
      withdrawable = undefined;
      send({ id, result: { status: 'interrupted' } });
    } else send({ id, result: { status: 'not_interrupted' } });
    return;
  }
  if (method === 'session.create') {
    // An event of the new session sent before the response: the client must not drop it.
    event('session.title', { title: 'early title' });
    event('error', { message: 'plugin "broken" failed to load' });
    // Another session's event, also before the response: the client cannot tell yet that it is foreign.
    send({ method: 'event', params: { type: 'error', session_id: 'other', payload: { message: 'not yours' } } });
    send({ id, result: { session_id: SESSION, stored_session_id: 'stored-1', message_count: 0, messages: [], info } });
    send({ method: 'event', params: { type: 'error', session_id: 'other', payload: { message: 'not yours either' } } });
    return;
  }
  if (method === 'session.resume') {
    // A restarted backend resuming the stored session its predecessor had open.
    const resumed = { ...info, stored_session_id: params.session_id };
    send({ id, result: { session_id: SESSION, stored_session_id: params.session_id, message_count: 0, messages: [], info: resumed } });
    return;
  }
  if (method === 'prompt.submit') {
    if (params.text === 'crash') {
      process.stderr.write('fatal: the fake backend crashed on purpose\n');
      process.exit(3);
    }
    if (params.text === 'crash-mid-reply') {
      send({ id, result: { status: 'streaming' } });
      event('message.start');
      event('message.delta', { text: 'a partial reply' });
      // Exits once the frames above are flushed, as a backend killed mid-stream does.
      process.stderr.write('fatal: the fake backend crashed mid-reply\n', () => process.exit(3));
      return;
    }
    if (params.text === 'close-output') {
      // Alive but deaf: nothing it writes can reach the client any more; it exits when its stdin closes.
      send({ id, result: { status: 'streaming' } });
      process.stdout.end();
      return;
    }
    if (params.text === 'nomodel') {
      send({ id, error: { code: 5032, message: 'no model configured: set model.provider' } });
      return;
    }
    current = params.session_id;
    lastPrompt = params.text;
    send({ id, result: { status: 'streaming' } });
    event('message.start');
    if (promptTurn(params.text)) return;
    event('message.delta', { text: 'echo: ' });
    event('message.delta', { text: params.text });
    event('message.complete', { text: `echo: ${params.text}`, status: 'complete', usage });
    return;
  }
  if (method === 'shell.exec') {
    if (params.command === 'crash') process.exit(3);
    send({ id, result: { stdout: `ran: ${params.command}\n`, stderr: '', code: 0 } });
    return;
  }
  if (method === 'config.set' && params.key === 'yolo') {
    info.yolo = params.value;
    event('session.info', info);
    send({ id, result: { key: 'yolo', value: params.value, ...(params.value ? { warning: 'yolo is on: fake warning' } : {}) } });
    return;
  }
  if (id !== undefined) send({ id, error: { code: -32601, message: `unknown method ${method}` } });
});
lines.on('close', () => process.exit(0));
