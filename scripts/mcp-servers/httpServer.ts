/**
 * hermes's HTTP MCP test server: `node --import tsx scripts/mcp-servers/httpServer.ts [--port N] [mode]`.
 * Prints `listening <url>` on stdout once it accepts connections. Modes: none (Streamable HTTP at
 * /mcp, one session per client), `--sse-only` (the older SSE transport at /sse, with POSTs to
 * /messages; a Streamable HTTP POST gets 405, so clients must fall back), `--never-initialize`
 * (accepts requests and never answers). Requests are checked for the header `x-test-token` when
 * the server is started with TEST_TOKEN set.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildTestServer } from './testServer.ts';

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? Number(args[portAt + 1]) : 0;
const mode = args.find((a) => a === '--sse-only' || a === '--never-initialize');
const token = process.env.TEST_TOKEN;

const streamable = new Map<string, StreamableHTTPServerTransport>();
const sse = new Map<string, SSEServerTransport>();

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

const server = http.createServer((req, res) => {
  void (async () => {
    if (token !== undefined && req.headers['x-test-token'] !== token) {
      res.writeHead(401).end('missing or wrong x-test-token');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (mode === '--never-initialize') return; // the socket stays open, unanswered
    if (mode === '--sse-only') {
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await buildTestServer('hermes-test-sse').connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) res.writeHead(404).end('unknown session');
        else await transport.handlePostMessage(req, res, await readBody(req));
        return;
      }
      res.writeHead(405).end('this server speaks only SSE (GET /sse)');
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end('not found');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    let transport = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void streamable.set(id, transport!),
      });
      transport.onclose = () => {
        if (transport!.sessionId) streamable.delete(transport!.sessionId);
      };
      await buildTestServer('hermes-test-http').connect(transport);
    }
    await transport.handleRequest(req, res, body);
  })().catch((error: unknown) => {
    process.stderr.write(`request failed: ${String(error)}\n`);
    if (!res.headersSent) res.writeHead(500).end(String(error));
  });
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  const path = mode === '--sse-only' ? '/sse' : '/mcp';
  process.stdout.write(`listening http://127.0.0.1:${address.port}${path}\n`);
});
