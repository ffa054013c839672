#!/usr/bin/env node
// The hermes backend: newline-delimited JSON-RPC 2.0 on stdin/stdout. Runs the esbuild bundle through
// its launcher. CommonJS, as the launcher: Node starts an ES module entry ~10 ms later (its ESM loader).
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const launcher = path.join(__dirname, '..', 'dist', 'main.cjs');
if (!existsSync(launcher)) {
  process.stderr.write(`hermes-rpc: ${launcher} is missing; run \`npm run build\` in the hermes repository first.\n`);
  process.exit(1);
}
require(launcher);
