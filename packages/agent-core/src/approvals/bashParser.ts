/**
 * tree-sitter's bash grammar (WASM, no native build), loaded lazily on the first check so that it is
 * never on the startup path. The grammar is error-tolerant: callers treat ERROR and MISSING nodes as
 * text hermes could not read.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import type { Node, Parser } from 'web-tree-sitter';

export type SyntaxNode = Node;

let loading: Promise<Parser> | null = null;
let grammarDir: string | undefined;

/**
 * Where a bundle keeps the grammar's two .wasm files (scripts/build.mjs copies them next to the
 * backend's bundle): an installed hermes has no node_modules holding web-tree-sitter or
 * tree-sitter-bash. Set by the bundle's entry, whose own location is known; unset, the files are
 * resolved from the packages.
 */
export function useGrammarDir(dir: string): void {
  grammarDir = dir;
}

/** The file `specifier` names in its package, or its copy in the grammar folder of a bundle. */
function grammarFile(specifier: string): string {
  return grammarDir ? path.join(grammarDir, path.basename(specifier)) : createRequire(import.meta.url).resolve(specifier);
}

/** The bash parser, loading the grammar on first use (about 15–30 ms). */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    // V8's optimising WebAssembly tier compiles the grammar in the background for ~300 ms of CPU,
    // holding up process exit, and the baseline tier parses these short commands faster anyway
    // (2,000 parses: 55 ms instead of ~100 ms). The grammar is the only WebAssembly hermes loads.
    v8.setFlagsFromString('--liftoff-only');
    const { Parser: TreeSitter, Language } = await import('web-tree-sitter');
    const runtimeWasm = grammarFile('web-tree-sitter/web-tree-sitter.wasm');
    await TreeSitter.init({ locateFile: () => runtimeWasm });
    const bash = await Language.load(grammarFile('tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new TreeSitter();
    parser.setLanguage(bash);
    return parser;
  })();
  loading.catch(() => (loading = null));
  return loading;
}

/** Parses `text`; the caller must `delete()` the returned tree's memory via `tree.delete()`. */
export function parseBash(parser: Parser, text: string) {
  const tree = parser.parse(text);
  if (!tree) throw new Error('the bash parser returned no tree');
  return tree;
}
