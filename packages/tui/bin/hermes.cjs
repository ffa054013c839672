#!/usr/bin/env node
// Launcher for the bundled TUI. The bundle is built by `npm run build` (scripts/build.mjs) from src/main.tsx.
// CommonJS, as the launcher it runs: Node starts an ES module entry ~10 ms later (its ESM loader).
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const launcher = path.join(__dirname, '..', 'dist', 'main.cjs');
if (!existsSync(launcher)) {
  process.stderr.write(`hermes: ${launcher} is missing; run \`npm run build\` in the hermes repository first.\n`);
  process.exit(1);
}
require(launcher);
