/**
 * The tools, resources and prompts of hermes's MCP test servers (stdio and HTTP), built with the
 * SDK's own McpServer: text, structured and error results, an image, a slow tool (timeouts), a tool
 * that crashes the process mid-call, one that adds a tool (`notifications/tools/list_changed`),
 * annotated destructive and read-only tools, and one that reads its environment (`${VAR}` tests).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Set by the stdio server's `--spawn-grandchild` mode. */
let grandchildPid: number | undefined;
export function setGrandchild(pid: number | undefined): void {
  grandchildPid = pid;
}

export function buildTestServer(name = 'hermes-test'): McpServer {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('echo', { description: 'Echoes the text back', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  server.registerTool(
    'add_numbers',
    { description: 'Adds two numbers; the sum comes back as structured content', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    ({ a, b }) => ({ content: [], structuredContent: { sum: a + b } }),
  );
  server.registerTool('always_fails', { description: 'Fails every time (isError)' }, () => ({
    content: [{ type: 'text', text: 'this tool always fails: the disk is on fire' }],
    isError: true,
  }));
  server.registerTool('pixel', { description: 'Returns a one-pixel image' }, () => ({
    content: [
      { type: 'text', text: 'here is a pixel' },
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
    ],
  }));
  server.registerTool('slow', { description: 'Waits `ms` milliseconds, then answers', inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    try {
      await sleep(ms, undefined, { signal: extra.signal });
    } catch {
      process.stderr.write(`slow: cancelled after the client gave up\n`);
      return { content: [{ type: 'text', text: 'cancelled' }] };
    }
    return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
  });
  server.registerTool('crash', { description: 'Crashes the server process mid-call' }, () => {
    process.stderr.write('crash: exiting on purpose in the middle of a call\n');
    process.exit(7);
  });
  server.registerTool('add_tool', { description: 'Adds a tool named `name` to this server', inputSchema: { name: z.string() } }, ({ name: added }) => {
    server.registerTool(added, { description: `A tool added at run time` }, () => ({ content: [{ type: 'text', text: `${added} says hi` }] }));
    return { content: [{ type: 'text', text: `added ${added}` }] };
  });
  server.registerTool(
    'delete_file',
    { description: 'Pretends to delete a file', inputSchema: { path: z.string() }, annotations: { destructiveHint: true, readOnlyHint: false } },
    ({ path }) => ({ content: [{ type: 'text', text: `deleted ${path}` }] }),
  );
  server.registerTool(
    'lookup',
    { description: 'Looks a key up (read-only)', inputSchema: { key: z.string() }, annotations: { readOnlyHint: true } },
    ({ key }) => ({ content: [{ type: 'text', text: `value of ${key}` }] }),
  );
  server.registerTool('env_value', { description: 'Returns the value of one of its environment variables', inputSchema: { name: z.string() } }, ({ name: variable }) => ({
    content: [{ type: 'text', text: `${variable}=${process.env[variable] ?? '(unset)'}` }],
  }));
  server.registerTool('stdout_noise', { description: 'Writes a line that is not JSON-RPC to stdout, then answers' }, () => {
    process.stdout.write('debug: this line is not JSON-RPC\n');
    return { content: [{ type: 'text', text: 'noisy but fine' }] };
  });
  server.registerTool('pids', { description: 'Its own pid and its grandchild\'s (with --spawn-grandchild), as JSON' }, () => ({
    content: [{ type: 'text', text: JSON.stringify({ pid: process.pid, grandchild: grandchildPid ?? null }) }],
  }));
  server.registerResource('greeting', 'test://greeting', { description: 'A greeting', mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello from the test server' }],
  }));
  server.registerPrompt('review', { description: 'Asks for a code review', argsSchema: { code: z.string() } }, ({ code }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Please review this code:\n${code}` } }],
  }));
  return server;
}
