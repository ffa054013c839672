/**
 * Starting the MCP test servers from tests and benches: the stdio server's command line (for an
 * `mcp_servers` entry), and the HTTP server as a real child process whose URL is read from its stdout.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** tsx's loader by absolute path: the server may run with any cwd. */
const TSX = createRequire(import.meta.url).resolve('tsx');

/** The stdio entry of the published `@modelcontextprotocol/server-everything` (a dev dependency), run by node directly: no npx, no network. */
export const EVERYTHING_SERVER = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

export type StdioMode = '--never-initialize' | '--fail-at-start' | '--spawn-grandchild' | '--odd-tools';

/** `command` and `args` for an `mcp_servers` entry running the stdio test server. */
export function stdioTestServer(mode?: StdioMode): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', TSX, path.join(here, 'stdioServer.ts'), ...(mode ? [mode] : [])] };
}

export interface HttpTestServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** Starts the HTTP test server (a child process) and resolves once it listens. */
export function startHttpTestServer(options: { mode?: '--sse-only' | '--never-initialize'; env?: Record<string, string>; port?: number } = {}): Promise<HttpTestServer> {
  const args = ['--import', TSX, path.join(here, 'httpServer.ts'), '--port', String(options.port ?? 0), ...(options.mode ? [options.mode] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const url = /listening (\S+)/.exec(out)?.[1];
      if (!url) return;
      resolve({
        url,
        pid: child.pid!,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`the HTTP test server exited (${code}) before listening: ${stderr}`)));
  });
}
