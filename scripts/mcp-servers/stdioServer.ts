/**
 * hermes's stdio MCP test server: `node --import tsx scripts/mcp-servers/stdioServer.ts [mode]`.
 * Modes: none (serves the test tools), `--never-initialize` (reads requests, answers none),
 * `--fail-at-start` (writes to stderr and exits 3 before any message), `--spawn-grandchild`
 * (also starts a child that sleeps, to check that the whole process group dies), `--odd-tools`
 * (malformed and oversized tools: oddToolsServer.ts).
 */
import { spawn } from 'node:child_process';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestServer, setGrandchild } from './testServer.ts';

const mode = process.argv[2];
process.stderr.write(`test server starting (pid ${process.pid}${mode ? `, ${mode}` : ''})\n`);

if (mode === '--fail-at-start') {
  process.stderr.write('fatal: the test server was told to fail at start\n');
  process.exit(3);
} else if (mode === '--odd-tools') {
  await import('./oddToolsServer.ts');
} else if (mode === '--never-initialize') {
  // Reads (so the pipe stays open) and never answers.
  process.stdin.resume();
} else {
  if (mode === '--spawn-grandchild') {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    setGrandchild(child.pid);
  }
  await buildTestServer('hermes-test-stdio').connect(new StdioServerTransport());
}
