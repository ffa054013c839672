#!/usr/bin/env node
// The hermes backend: newline-delimited JSON-RPC 2.0 on stdin/stdout. Runs the esbuild bundle.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`hermes-rpc: ${bundle} is missing; run \`npm run build\` in the hermes repository first.\n`);
  process.exit(1);
}
await import(bundle);
