import fs from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';

type Ignore = ReturnType<typeof ignore>;

/** Never searched: version control internals and installed dependencies. */
const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

interface Rules {
  base: string;
  matcher: Ignore;
}

async function loadRules(dir: string): Promise<Rules | null> {
  try {
    const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8');
    return { base: dir, matcher: ignore().add(text) };
  } catch {
    return null;
  }
}

/**
 * Whether `abs` is ignored by the `.gitignore` files in effect, as git decides: deeper files win,
 * and a `!pattern` re-includes what a shallower one excluded.
 */
function isIgnored(abs: string, isDir: boolean, stack: Rules[]): boolean {
  let ignored = false;
  for (const rules of stack) {
    const rel = path.relative(rules.base, abs).split(path.sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    const verdict = rules.matcher.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

/**
 * The `.gitignore` files above `root` that still apply to it: those from the enclosing repository's
 * top (the nearest directory holding `.git`) down to `root`'s parent. None outside a repository.
 */
async function ancestorRules(root: string): Promise<Rules[]> {
  const chain: string[] = [];
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    chain.unshift(dir);
    const isTop = await fs.stat(path.join(dir, '.git')).then(
      () => true,
      () => false,
    );
    if (isTop) break;
    if (path.dirname(dir) === dir) return [];
  }
  const rules = await Promise.all(chain.map(loadRules));
  return rules.filter((r): r is Rules => r !== null);
}

/**
 * Yields the files under `root` (or `root` itself if it is a file) in a stable order, skipping
 * ignored paths, `.git`, `node_modules` and symlinked directories (which could loop). Stops on abort.
 */
export async function* walkFiles(root: string, signal: AbortSignal): AsyncGenerator<string> {
  const stat = await fs.stat(root).catch(() => null);
  if (!stat) throw new Error(`No such file or directory: ${root}`);
  if (stat.isFile()) {
    yield root;
    return;
  }
  const base = await ancestorRules(root);
  async function* visit(dir: string, stack: Rules[]): AsyncGenerator<string> {
    signal.throwIfAborted();
    const own = await loadRules(dir);
    const rules = own ? [...stack, own] : stack;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // Unreadable directories (permissions) are skipped, like grep -r does with a warning.
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!isIgnored(abs, true, rules)) yield* visit(abs, rules);
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (entry.isSymbolicLink() && !(await fs.stat(abs).catch(() => null))?.isFile()) continue;
        if (!isIgnored(abs, false, rules)) yield abs;
      }
    }
  }
  yield* visit(root, base);
}
