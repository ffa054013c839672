#!/usr/bin/env node
// Launcher for the bundled TUI. The bundle is built by `npm run build` (scripts/build.mjs) from src/main.tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write(`hermes: ${bundle} is missing; run \`npm run build\` in the hermes repository first.\n`);
  process.exit(1);
}
await import(new URL('../dist/main.js', import.meta.url).href);
