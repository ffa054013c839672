/**
 * The one rule between packages: the TUI talks to the backend only through the wire contract. It may
 * import `@hermes/rpc-server/protocol` and `@hermes/rpc-server/transport`, nothing else of ours, and
 * no relative path may reach into another package. Test support may also use the repo's `scripts/`
 * tooling (the scripted model server).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = dirname(SRC);
const REPO_ROOT = resolve(PACKAGE_ROOT, '..', '..');
const ALLOWED_HERMES = new Set(['@hermes/rpc-server/protocol', '@hermes/rpc-server/transport']);
const FORBIDDEN_PACKAGES = ['@hermes/agent-core', '@hermes/plugin-host', '@hermes/rpc-server'];

/** Every module specifier in a source file: static and dynamic imports, re-exports, require calls. */
function specifiersOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

const inside = (path: string, folder: string) => path === folder || path.startsWith(folder + sep);
const isTestSupport = (file: string) => /\.test\.tsx?$/.test(file) || inside(file, join(SRC, 'testing'));

/** Why `specifier`, imported by `importer`, breaks the rule; undefined when it does not. */
function violation(importer: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) {
    const target = resolve(dirname(importer), specifier);
    if (inside(target, PACKAGE_ROOT)) return undefined;
    if (isTestSupport(importer) && inside(target, join(REPO_ROOT, 'scripts'))) return undefined;
    return `relative import escapes packages/tui: ${relative(REPO_ROOT, target)}`;
  }
  if (ALLOWED_HERMES.has(specifier)) return undefined;
  const forbidden = FORBIDDEN_PACKAGES.find((name) => specifier === name || specifier.startsWith(`${name}/`));
  if (forbidden) return `imports ${specifier}; only @hermes/rpc-server/protocol and /transport are allowed`;
  if (specifier.startsWith('@hermes/')) return `imports ${specifier}, another hermes package`;
  return undefined;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(name) ? [path] : [];
  });
}

function resolveRelative(importer: string, specifier: string): string | undefined {
  const base = resolve(dirname(importer), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Walks the import graph from every file in src, following relative imports inside the package. */
function graphViolations(): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = sourceFiles(SRC);
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      const problem = violation(file, specifier);
      if (problem) found.push(`${relative(REPO_ROOT, file)}: ${problem}`);
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(file, specifier);
      if (target && inside(target, PACKAGE_ROOT)) queue.push(target);
    }
  }
  return found;
}

describe('TUI import graph', () => {
  it('reaches other packages only through the protocol and transport exports', () => {
    expect(graphViolations()).toEqual([]);
  });

  it('flags forbidden imports of every kind', () => {
    const importer = join(SRC, 'components', 'App.tsx');
    const source = [
      "import { Agent } from '@hermes/agent-core';",
      "export { x } from '@hermes/plugin-host/hooks';",
      "const m = await import('@hermes/rpc-server/handlers');",
      "const r = require('../../../agent-core/src/index.ts');",
      "import type { Method } from '@hermes/rpc-server/protocol';",
      "import { Box } from 'ink';",
    ].join('\n');
    const problems = specifiersOf(source).map((specifier) => violation(importer, specifier));
    expect(problems.map(Boolean)).toEqual([true, true, true, true, false, false]);
  });

  it('lets only test support reach the repo scripts', () => {
    expect(violation(join(SRC, 'e2e', 'tui.e2e.test.ts'), '../../../../scripts/model-server/index.ts')).toBeUndefined();
    expect(violation(join(SRC, 'app', 'runTui.tsx'), '../../../../scripts/model-server/index.ts')).toMatch(/escapes/);
  });
});
