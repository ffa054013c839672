/**
 * `hermes --demo`: a scripted model server runs as a child so the demo works without any API key.
 * It prints `listening <baseUrl>` when ready; the backend is then pointed at that URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Logger } from '../logging/logger.ts';
import type { ProcessCommand } from '../rpc/backendCommand.ts';
import { nodeArgsFor, tsxImportSpecifier } from '../rpc/backendCommand.ts';
import { StderrRing } from '../rpc/stderrRing.ts';
import type { Runtime } from '../app/runtime.ts';

const LISTEN_TIMEOUT_MS = 15_000;

const DEMO_FILE_TEXT = `Welcome to the hermes demo.

This file was written to a temporary folder so the scripted demo model has something to read.
The read_file tool you just watched is the same one a real model uses.
`;

export interface DemoModelServer {
  baseUrl: string;
  stop(): Promise<void>;
}

export function demoServerCommand(runtime: Runtime, demoFile: string, env: NodeJS.ProcessEnv = process.env): ProcessCommand {
  const override = env.HERMES_DEMO_SERVER_ENTRY?.trim();
  let nodeArgs: string[];
  if (override) nodeArgs = nodeArgsFor(override);
  else if (runtime.bundled && runtime.distDir) nodeArgs = [join(runtime.distDir, 'demo-model-server.js')];
  else nodeArgs = ['--import', tsxImportSpecifier(), join(runtime.repoRoot, 'scripts', 'model-server', 'cli.ts')];
  return { command: process.execPath, args: [...nodeArgs, '--demo', demoFile] };
}

export async function startDemoModelServer(runtime: Runtime, logger: Logger): Promise<DemoModelServer> {
  const folder = mkdtempSync(join(tmpdir(), 'hermes-demo-'));
  const demoFile = join(folder, 'welcome.txt');
  writeFileSync(demoFile, DEMO_FILE_TEXT);
  const command = demoServerCommand(runtime, demoFile);
  logger.info('starting the demo model server', { ...command });
  const child = execa(command.command, command.args, { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', buffer: false, reject: false });
  const stderr = new StderrRing(50);
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });

  const stop = async () => {
    if (child.exitCode === null && !child.killed) child.kill('SIGTERM');
    await child;
    removeFolder();
  };

  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the demo model server did not start within ${LISTEN_TIMEOUT_MS / 1000} s`)), LISTEN_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const newline = output.indexOf('\n');
        if (newline === -1) return;
        clearTimeout(timer);
        const match = /^listening (\S+)/.exec(output.slice(0, newline).trim());
        if (match) resolve(match[1]);
        else reject(new Error(`the demo model server printed "${output.slice(0, newline)}" instead of "listening <url>"`));
      });
      void child.then((result) => {
        clearTimeout(timer);
        reject(new Error(`the demo model server exited with code ${result.exitCode ?? result.signal ?? 'unknown'}`));
      });
    });
    logger.info('demo model server listening', { baseUrl });
    return { baseUrl, stop };
  } catch (error) {
    await stop();
    const tail = stderr.tail(10).join('\n');
    throw new Error(`${(error as Error).message}${tail ? `\n${tail}` : ''}`);
  }
}
