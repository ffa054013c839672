// A stand-in backend for controller tests: speaks the hermes NDJSON protocol from a few canned rules.
// Plain JavaScript so it runs with `node` directly, as the real backend's bundle does.
import { createInterface } from 'node:readline';

const SESSION = 'sess-1';
let seq = 0;
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const event = (type, payload) => send({ method: 'event', params: { type, session_id: SESSION, seq: ++seq, payload } });
const usage = { model: 'fake', input: 1, output: 2, reasoning: 0, total: 3, calls: 1 };
const info = {
  model: 'fake-model', provider: 'fake', cwd: process.cwd(), title: null, stored_session_id: 'stored-1',
  toolsets: {}, approval_mode: 'manual', yolo: false, plugin_count: 0, usage, version: '0.0.0-fake',
};

send({ method: 'event', params: { type: 'gateway.ready', payload: { version: '0.0.0-fake', protocol: 1, pid: process.pid } } });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  const { id, method, params } = message;
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
  if (method === 'prompt.submit') {
    if (params.text === 'crash') {
      process.stderr.write('fatal: the fake backend crashed on purpose\n');
      process.exit(3);
    }
    if (params.text === 'nomodel') {
      send({ id, error: { code: 5032, message: 'no model configured: set model.provider' } });
      return;
    }
    send({ id, result: { status: 'streaming' } });
    event('message.start');
    event('message.delta', { text: 'echo: ' });
    event('message.delta', { text: params.text });
    event('message.complete', { text: `echo: ${params.text}`, status: 'complete', usage });
    return;
  }
  if (id !== undefined) send({ id, error: { code: -32601, message: `unknown method ${method}` } });
});
lines.on('close', () => process.exit(0));
