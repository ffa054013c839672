/**
 * Runs the scripted model server as a process. stdout carries exactly one line, `listening <baseUrl>`,
 * which other programs read to find the port; everything else goes to stderr.
 * Plain Node only (no tsx-specific imports): esbuild bundles this file into a standalone script.
 */
import { parseArgs } from 'node:util';
import { demoScript } from './demo.ts';
import { ScriptError, loadScript } from './script.ts';
import type { Script } from './script.ts';
import { startModelServer } from './server.ts';

const USAGE = 'usage: model-server (--script <file.yaml|json> | --demo <file-to-read>) [--port N]';

/** Exit codes: 2 for bad usage or a bad script (the caller must fix something), 1 for anything else. */
function fail(message: string, code: number): never {
  process.stderr.write(`model-server: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let values: { script?: string; demo?: string; port?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        script: { type: 'string' },
        demo: { type: 'string' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`, 2);
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if ((values.script === undefined) === (values.demo === undefined)) fail(`give exactly one of --script or --demo\n${USAGE}`, 2);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer 0–65535, got ${values.port}`, 2);

  let script: Script;
  try {
    script = values.script !== undefined ? loadScript(values.script) : demoScript(values.demo as string);
  } catch (err) {
    if (err instanceof ScriptError) fail(err.message, 2);
    throw err;
  }

  const server = await startModelServer(script, {
    port,
    log: (line) => process.stderr.write(`model-server: ${line}\n`),
  });
  process.stdout.write(`listening ${server.baseUrl}\n`);

  const stop = (signal: string) => {
    process.stderr.write(`model-server: ${signal}, shutting down after ${server.served} request(s)\n`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => fail(`error while closing: ${String(err)}`, 1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => fail((err as Error).stack ?? String(err), 1));
