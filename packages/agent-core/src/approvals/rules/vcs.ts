/**
 * git and gh: what loses work or history (a hard reset, a force push, a clean, a dropped stash, a
 * rewritten history), what deletes on GitHub, and git configuration that runs programs (aliases
 * with `!`, `core.sshCommand`, filters, …), given with `-c` or written with `git config`.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, optValues, parseOptions, type OptionSpec, type ParsedOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';
import { harmlessProgram } from './environment.ts';

const text = (w: WordValue | undefined) => (w ? literal(w) ?? '' : '');
const quote = (w: WordValue) => (literal(w) === null ? display(w) : `'${literal(w)!.replace(/'/g, `'\\''`)}'`);

// ── configuration that runs programs ──

/** Keys whose value is a command git runs through the shell (lowercased; `*` is any subsection). */
const CODE_KEYS = /^(?:core\.(?:sshcommand|pager|editor|fsmonitor|askpass|gitproxy|alternaterefscommand)|credential\.(?:.+\.)?helper|diff\.external|diff\..+\.(?:textconv|command)|merge\..+\.driver|filter\..+\.(?:clean|smudge|process)|gpg\.(?:.+\.)?program|sequence\.editor|pager\..+|interactive\.difffilter|uploadpack\.packobjectshook|remote\..+\.(?:uploadpack|receivepack)|(?:diff|merge)tool\..+\.cmd|web\.browser|browser\..+\.cmd|man\..+\.cmd|sendemail\.(?:sendmailcmd|tocmd|cccmd)|submodule\..+\.update)$/;
/** Keys that make git run programs from elsewhere (hooks, included config, the `ext::` transport). */
const PROGRAM_KEYS = /^(?:core\.hookspath|include\.path|includeif\..+\.path|protocol\.(?:.+\.)?allow|init\.templatedir|url\..+\.(?:insteadof|pushinsteadof)|safe\.directory|core\.worktree|core\.attributesfile|core\.excludesfile)$/;
/** Values that run nothing worth asking about (`-c core.pager=cat`, `-c pager.log=false`). */
const HARMLESS = /^(?:|true|false|yes|no|on|off|0|1|:|never|user)$/i;
/** `submodule.*.update` is a mode (`rebase`, `merge`, …) unless it starts with `!`; `credential.helper` may be gh's own helper. */
const NOT_CODE = /^submodule\..+\.update$/;
const GH_HELPER = /^!\s*(?:\S*\/)?gh auth git-credential\s*$/;

/** The key as approvals remember it: subsection replaced by `*` (`filter.lfs.smudge` → `filter.*.smudge`). */
function keyClass(key: string): string {
  const parts = key.split('.');
  return parts.length > 2 ? `${parts[0]}.*.${parts[parts.length - 1]}` : key;
}

/** A value that runs nothing worth asking about: a mode, a boolean, or a well-known program (see `harmlessProgram`). */
function harmlessSetting(k: string, value: string, code: boolean): boolean {
  if (NOT_CODE.test(k)) return !value.startsWith('!');
  if (HARMLESS.test(value.trim())) return !/^protocol\./.test(k);
  if (!code) return false;
  if (/^credential\./.test(k)) return harmlessProgram(value, 'credential') || GH_HELPER.test(value);
  return harmlessProgram(value, /^gpg\./.test(k) ? 'signer' : 'program');
}

/** A configuration entry given for one run (`-c`) or written (`git config`): asks when it runs programs. */
function configEntry(key: string, value: string | null, inv: Invocation, j: Judgement, how: string): void {
  const k = key.toLowerCase();
  if (k.startsWith('alias.')) return aliasEntry(key.slice(6), value, inv, j, how);
  const code = CODE_KEYS.test(k);
  if (!code && !PROGRAM_KEYS.test(k)) return;
  // Trusting one named repository (the usual fix for "dubious ownership") is fine; `*` trusts every one.
  if (k === 'safe.directory' && value !== null && value !== '*') return;
  if (value !== null && harmlessSetting(k, value, code)) return;
  j.add('dangerous', 'git.config-program', `git ${keyClass(k)}`, `git ${how} ${key}=${value ?? '(set at run time)'} makes git run a program`);
  if (code && value) j.code(value.replace(/^!/, ''), inv);
}

/**
 * An alias: `!cmd` runs shell code; any other is git arguments, judged where it is used (`-c`) or,
 * written to a config file, judged now as the git command it stands for (`alias.up = push --force`).
 */
function aliasEntry(name: string, value: string | null, inv: Invocation, j: Judgement, how: string): void {
  const define = (level: 'dangerous' | 'hardline', why: string) => j.add(level, 'git.alias', 'git alias', `git ${how} defines the git alias ${name} = ${value ?? '(set at run time)'}${why}`);
  if (value === null || value.startsWith('!')) {
    define('dangerous', '');
    if (value) j.code(value.slice(1), inv);
    return;
  }
  if (how === '-c') return;
  const before = j.findings.length;
  subcommand(aliasWords(value), inv, j, { aliases: new Map(), cleanUnforced: false }, 1);
  const found = j.findings.splice(before);
  if (found.length) define(found.some((f) => f.level === 'hardline') ? 'hardline' : 'dangerous', `: ${found[0]!.why}`);
}

// ── global options and aliases ──

interface GitLine {
  aliases: Map<string, string>;
  /** `-c clean.requireForce=false`. */
  cleanUnforced: boolean;
}

/** Global options before the subcommand (git parses these itself: no abbreviations). */
function git(inv: Invocation, j: Judgement): void {
  const line: GitLine = { aliases: new Map(), cleanUnforced: false };
  const args = inv.args;
  let i = 0;
  for (; i < args.length; i += 1) {
    const t = text(args[i]);
    if (!t.startsWith('-')) break;
    if (['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--list-cmds', '--attr-source'].includes(t)) {
      const value = args[i + 1];
      i += 1;
      if (t === '-c') setting(value ? literal(value) : null, inv, j, line);
      if (t === '--config-env') setting(`${text(value).split('=')[0]}`, inv, j, line, true);
      continue;
    }
    if (t.startsWith('--config-env=')) setting(t.slice(13).split('=')[0]!, inv, j, line, true);
    else if (t.startsWith('-c') && t.length > 2) setting(t.slice(2), inv, j, line);
    else if (t.startsWith('--exec-path=')) j.add('dangerous', 'git.config-program', 'git --exec-path', `git ${t} runs git's programs from another directory`);
    else if (['-h', '--help', '-v', '--version', '--exec-path', '--html-path', '--man-path', '--info-path'].includes(t)) return;
  }
  subcommand(args.slice(i), inv, j, line, 0);
}

/** `-c key=value` (a bare `-c key` is `true`); `fromEnv`: the value is an environment variable's. */
function setting(entry: string | null, inv: Invocation, j: Judgement, line: GitLine, fromEnv = false): void {
  if (entry === null) return j.add('dangerous', 'git.config-program', 'git config', 'git -c with a setting decided at run time');
  const eq = entry.indexOf('=');
  const key = eq < 0 ? entry : entry.slice(0, eq);
  const value = fromEnv ? null : eq < 0 ? 'true' : entry.slice(eq + 1);
  if (/^alias\./i.test(key) && value !== null) line.aliases.set(key.slice(6).toLowerCase(), value);
  if (/^clean\.requireforce$/i.test(key) && /^(?:false|no|off|0)$/i.test(value ?? '')) line.cleanUnforced = true;
  configEntry(key, value, inv, j, fromEnv ? '--config-env' : '-c');
}

/** Splits an alias value as git does (blanks, quotes). */
const aliasWords = (value: string) => [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => lit(m[1] ?? m[2] ?? m[3]!));

function subcommand(words: WordValue[], inv: Invocation, j: Judgement, line: GitLine, depth: number): void {
  const name = text(words[0]);
  const rest = words.slice(1);
  const alias = line.aliases.get(name.toLowerCase());
  if (alias !== undefined && depth < 5 && !SUBCOMMANDS[name]) {
    // `!cmd` aliases run `cmd "$@"` in the shell; the others are git arguments.
    if (alias.startsWith('!')) return j.code(`${alias.slice(1)} ${rest.map(quote).join(' ')}`, inv);
    return subcommand([...aliasWords(alias), ...rest], inv, j, line, depth + 1);
  }
  SUBCOMMANDS[name]?.(rest, inv, j, line);
}

// ── subcommands ──

type Sub = (args: WordValue[], inv: Invocation, j: Judgement, line: GitLine) => void;
const parse = (args: WordValue[], short: string, long: string[]): ParsedOptions => parseOptions(args, { short, long });
/** `.`, `:/`, `*`, a directory or a glob: every change under it. */
const BROAD = /^(?:\.\/?|:\/?|:\(top\)\.?|:\/\.|\.?\/?\*+|.*\/|.*\*.*)$/;
const broad = (p: ParsedOptions) => p.operands.some((w) => BROAD.test(text(w)));
const discard = (j: Judgement, why: string) => j.add('dangerous', 'git.discard', 'uncommitted changes', why);

const PUSH: OptionSpec = { short: 'vqufdn46o:', long: ['all', 'branches', 'mirror', 'delete', 'tags', 'follow-tags', 'dry-run', 'porcelain', 'force', 'force-with-lease', 'no-force-with-lease', 'force-if-includes', 'no-force-if-includes', 'repo=', 'set-upstream', 'thin', 'no-thin', 'receive-pack=', 'exec=', 'verify', 'no-verify', 'progress', 'prune', 'recurse-submodules=', 'atomic', 'push-option=', 'signed', 'ipv4', 'ipv6', 'verbose', 'quiet'] };

const push: Sub = (args, inv, j) => {
  const p = parseOptions(args, PUSH);
  remoteProgram(optValues(p, 'receive-pack', 'exec'), inv, j);
  if (hasOpt(p, 'n', 'dry-run')) return;
  const refspecs = p.operands.map(text);
  const force = ['force', 'f', 'force-with-lease', 'force-if-includes', 'mirror'].find((o) => hasOpt(p, o));
  const plus = refspecs.find((r) => r.startsWith('+'));
  if (force || plus) j.add('dangerous', 'git.force-push', 'remote history', `git push ${plus ?? `-${force!.length > 1 ? '-' : ''}${force}`} can overwrite commits on the remote`);
  const colon = refspecs.find((r) => /^:./.test(r));
  if (hasOpt(p, 'd', 'delete', 'prune', 'mirror') || colon) {
    j.add('dangerous', 'git.push-delete', 'remote branches', `git push ${colon ?? (hasOpt(p, 'prune') ? '--prune' : hasOpt(p, 'mirror') ? '--mirror' : '--delete')} deletes branches or tags on the remote`);
  }
};

/** `--upload-pack`/`--receive-pack`: the program run for a local remote (and over ssh). */
function remoteProgram(values: string[], inv: Invocation, j: Judgement): void {
  for (const v of values) {
    j.add('dangerous', 'git.config-program', 'git --upload-pack', `git runs \`${v}\` as the remote's pack program`);
    if (v !== '\u0000') j.code(v, inv);
  }
}

/** `--template=DIR`: hooks copied from DIR run in the new repository (during a clone, at checkout). */
function templateHooks(dirs: string[], sub: string, j: Judgement): void {
  if (dirs.length) j.add('dangerous', 'git.config-program', 'git hooks', `git ${sub} --template=${dirs[0]} installs hooks from another directory, and git runs them`);
}

const SUBCOMMANDS: Record<string, Sub> = {
  push,
  fetch: (args, inv, j) => remoteProgram(optValues(parse(args, '', ['upload-pack=']), 'upload-pack'), inv, j),
  pull: (args, inv, j) => remoteProgram(optValues(parse(args, '', ['upload-pack=']), 'upload-pack'), inv, j),
  'ls-remote': (args, inv, j) => remoteProgram(optValues(parse(args, '', ['upload-pack=']), 'upload-pack'), inv, j),
  clone: (args, inv, j) => {
    const p = parse(args, 'u:c:o:b:j:', ['upload-pack=', 'config=', 'origin=', 'branch=', 'template=', 'reference=', 'reference-if-able=', 'depth=', 'separate-git-dir=', 'jobs=', 'filter=', 'shallow-since=', 'shallow-exclude=', 'server-option=', 'bundle-uri=', 'ref-format=']);
    remoteProgram(optValues(p, 'u', 'upload-pack'), inv, j);
    for (const c of optValues(p, 'c', 'config')) configEntry(c.split('=')[0]!, c.includes('=') ? c.slice(c.indexOf('=') + 1) : 'true', inv, j, 'clone --config');
    templateHooks(optValues(p, 'template'), 'clone', j);
    // Into the directory named, or the repository's "humanish" name in the cwd (`…/x.git` → `x`).
    const [repo, dir] = p.operands;
    const name = text(repo).replace(/\/+$/, '').replace(/\/?\.git$/, '').split(/[/:]/).pop();
    const into = dir ?? (name ? lit(name) : undefined);
    if (into) j.write(into, inv, 'git clone into');
    for (const d of optValues(p, 'separate-git-dir')) j.write(lit(d), inv, 'git clone --separate-git-dir into');
  },
  init: (args, _inv, j) => templateHooks(optValues(parse(args, 'q', ['template=', 'separate-git-dir=', 'object-format=', 'ref-format=', 'shared=', 'initial-branch=', 'bare', 'quiet']), 'template'), 'init', j),
  worktree: (args, inv, j) => {
    const verb = text(args[0]);
    const p = parse(args.slice(1), 'fqb:B:', ['force', 'detach', 'checkout', 'no-checkout', 'lock', 'reason=', 'orphan', 'track', 'no-track', 'guess-remote', 'no-guess-remote', 'quiet', 'expire=', 'verbose', 'porcelain']);
    if (verb === 'add' && p.operands[0]) j.write(p.operands[0], inv, 'git worktree add into');
    if (verb === 'remove' && hasOpt(p, 'f', 'force')) discard(j, `git worktree remove --force ${text(p.operands[0])} deletes a worktree with its uncommitted changes`);
  },
  archive: (args, inv, j) => {
    const p = parse(args, 'o:l', ['output=', 'format=', 'prefix=', 'remote=', 'exec=', 'add-file=', 'add-virtual-file=', 'worktree-attributes', 'verbose', 'list', 'mtime=']);
    remoteProgram(optValues(p, 'exec'), inv, j);
    for (const out of optValues(p, 'o', 'output')) j.write(lit(out), inv, 'git archive to');
  },
  reset: (args, _inv, j) => {
    const p = parse(args, 'qpN', ['soft', 'mixed', 'hard', 'merge', 'keep', 'quiet', 'no-quiet', 'patch', 'intent-to-add', 'pathspec-from-file=', 'pathspec-file-nul', 'recurse-submodules', 'no-recurse-submodules', 'refresh', 'no-refresh']);
    if (hasOpt(p, 'hard')) j.add('dangerous', 'git.reset-hard', 'uncommitted changes', `git reset --hard ${p.operands.map(text).join(' ') || 'HEAD'} discards uncommitted changes`);
  },
  clean: (args, _inv, j, line) => {
    const p = parse(args, 'dfinqxXe:', ['dry-run', 'force', 'interactive', 'quiet', 'exclude=']);
    if (hasOpt(p, 'n', 'dry-run') || !(hasOpt(p, 'f', 'force', 'i', 'interactive') || line.cleanUnforced)) return;
    j.add('dangerous', 'git.clean', 'untracked files', `git clean deletes untracked files${hasOpt(p, 'x', 'X') ? ', ignored ones too (.env, build output)' : ''}`);
  },
  branch: (args, _inv, j) => {
    const p = parse(args, 'dDfmMcCrailqvtu:', ['delete', 'force', 'move', 'copy', 'remotes', 'all', 'list', 'quiet', 'verbose', 'track', 'no-track', 'set-upstream-to=', 'unset-upstream', 'color', 'no-color', 'sort=', 'merged', 'no-merged', 'contains', 'no-contains', 'points-at=', 'format=', 'edit-description', 'create-reflog', 'show-current', 'ignore-case', 'recurse-submodules']);
    if (hasOpt(p, 'D') || (hasOpt(p, 'd', 'delete') && hasOpt(p, 'f', 'force'))) j.add('dangerous', 'git.branch-delete', 'local branches', `git branch -D ${p.operands.map(text).join(' ')} deletes branches even when unmerged`);
    // `branch -f main HEAD~5`, `branch -M old main`: an existing branch is moved or replaced.
    // (`git branch -M main`, renaming the current branch as GitHub's instructions do, stays silent.)
    else if ((hasOpt(p, 'f', 'force') && p.operands.length >= 1 && !hasOpt(p, 'l', 'list')) || (hasOpt(p, 'M', 'C') && p.operands.length >= 2)) {
      j.add('dangerous', 'git.ref-rewrite', 'local branches', `git branch ${args.map(text).join(' ')} moves or overwrites an existing branch`);
    }
  },
  'read-tree': (args, _inv, j) => {
    if (args.some((w) => text(w) === '--reset') && args.some((w) => /^-\w*u$|^-u$/.test(text(w)))) discard(j, 'git read-tree -u --reset overwrites the working tree');
  },
  'send-pack': (args, _inv, j) => {
    if (args.some((w) => /^--force$|^-f$/.test(text(w)) || text(w).startsWith('+'))) j.add('dangerous', 'git.force-push', 'remote history', 'git send-pack --force rewrites remote history');
  },
  lfs: (args, _inv, j) => {
    if (text(args[0]) === 'prune' && args.some((w) => /^--force$|^-f$/.test(text(w)))) j.add('dangerous', 'git.prune', 'local history', 'git lfs prune --force deletes local LFS objects');
  },
  checkout: (args, _inv, j) => {
    const p = parse(args, 'qfmpb:B:t23', ['quiet', 'force', 'merge', 'patch', 'detach', 'track', 'no-track', 'guess', 'no-guess', 'orphan=', 'ours', 'theirs', 'conflict=', 'overwrite-ignore', 'ignore-other-worktrees', 'recurse-submodules', 'no-recurse-submodules', 'overlay', 'no-overlay', 'pathspec-from-file=', 'pathspec-file-nul', 'progress', 'no-progress']);
    if (hasOpt(p, 'f', 'force') || broad(p)) discard(j, `git checkout ${args.map(text).join(' ')} discards uncommitted changes`);
    if (hasOpt(p, 'B')) j.add('dangerous', 'git.ref-rewrite', 'local branches', `git checkout -B ${optValues(p, 'B').join(' ')} resets a branch that may exist`);
  },
  switch: (args, _inv, j) => {
    const p = parse(args, 'c:C:fdmqt', ['create=', 'force-create=', 'force', 'discard-changes', 'detach', 'merge', 'conflict=', 'quiet', 'orphan=', 'track', 'no-track', 'guess', 'no-guess', 'progress', 'ignore-other-worktrees', 'recurse-submodules']);
    if (hasOpt(p, 'f', 'force', 'discard-changes')) discard(j, 'git switch --discard-changes throws away uncommitted changes');
  },
  restore: (args, _inv, j) => {
    const p = parse(args, 's:pWSqm23', ['source=', 'patch', 'worktree', 'staged', 'quiet', 'progress', 'ours', 'theirs', 'merge', 'conflict=', 'ignore-unmerged', 'ignore-skip-worktree-bits', 'recurse-submodules', 'overlay', 'no-overlay', 'pathspec-from-file=', 'pathspec-file-nul']);
    const worktree = hasOpt(p, 'W', 'worktree') || !hasOpt(p, 'S', 'staged');
    if (worktree && (broad(p) || hasOpt(p, 'pathspec-from-file'))) discard(j, `git restore ${args.map(text).join(' ')} discards uncommitted changes`);
  },
  rm: (args, _inv, j) => {
    const p = parse(args, 'nrfq', ['dry-run', 'force', 'cached', 'quiet', 'ignore-unmatch', 'sparse', 'pathspec-from-file=', 'pathspec-file-nul']);
    if (hasOpt(p, 'f', 'force') && !hasOpt(p, 'cached', 'n', 'dry-run')) discard(j, `git rm -f ${p.operands.map(text).join(' ')} deletes files with uncommitted changes`);
  },
  stash: (args, _inv, j) => {
    const verb = text(args[0]);
    if (verb === 'clear' || verb === 'drop') j.add('dangerous', 'git.stash-drop', 'stashes', `git stash ${verb} deletes ${verb === 'clear' ? 'every stash' : 'a stash'}`);
  },
  reflog: (args, _inv, j) => {
    const verb = text(args[0]);
    if (verb === 'expire' || verb === 'delete') j.add('dangerous', 'git.reflog-expire', 'local history', `git reflog ${verb} removes the record that recovers lost commits`);
  },
  gc: (args, _inv, j) => {
    const prune = optValue(parse(args, 'q', ['prune', 'no-prune', 'aggressive', 'auto', 'quiet', 'force', 'keep-largest-pack', 'cruft', 'no-cruft', 'max-cruft-size=', 'expire-to=']), 'prune');
    if (prune && /^(?:now|all|\u0000)$|^\d+\.(?:seconds?|minutes?|hours?)\.ago$/i.test(prune)) j.add('dangerous', 'git.prune', 'local history', `git gc --prune=${prune} deletes unreachable commits now`);
  },
  prune: (args, _inv, j) => {
    if (!hasOpt(parse(args, 'nv', ['dry-run', 'verbose', 'progress', 'expire=']), 'n', 'dry-run')) j.add('dangerous', 'git.prune', 'local history', 'git prune deletes unreachable commits');
  },
  'update-ref': (args, inv, j) => {
    const p = parse(args, 'dmz', ['no-deref', 'stdin', 'create-reflog']);
    const stdin = inv.fact.stdin?.text ?? null;
    if (hasOpt(p, 'd') || (hasOpt(p, 'stdin') && (stdin === null || /^delete /m.test(stdin)))) j.add('dangerous', 'git.ref-delete', 'local branches', 'git update-ref deletes a ref');
    // `git update-ref refs/heads/main HEAD~10`: a branch moved without a trace in its own history.
    else if (p.operands.length >= 2 && /^refs\/(?:heads|tags)\//.test(text(p.operands[0]))) j.add('dangerous', 'git.ref-rewrite', 'local branches', `git update-ref moves ${text(p.operands[0])}`);
  },
  'filter-branch': (args, inv, j) => {
    const filters = ['env-filter=', 'tree-filter=', 'index-filter=', 'parent-filter=', 'msg-filter=', 'commit-filter=', 'tag-name-filter=', 'setup='];
    const p = parse(args, 'd:f', [...filters, 'subdirectory-filter=', 'prune-empty', 'original=', 'state-branch=', 'force']);
    j.add('dangerous', 'git.rewrite-history', 'local history', 'git filter-branch rewrites every commit');
    for (const code of optValues(p, ...filters.map((f) => f.slice(0, -1)))) if (code !== '\u0000') j.code(code, inv);
  },
  'filter-repo': (_args, _inv, j) => j.add('dangerous', 'git.rewrite-history', 'local history', 'git filter-repo rewrites every commit'),
  replace: (args, _inv, j) => {
    const p = parse(args, 'dflg', ['delete', 'force', 'list', 'edit', 'graft', 'convert-graft-file', 'raw', 'format=']);
    if (!hasOpt(p, 'l', 'list') && (p.operands.length || hasOpt(p, 'd', 'delete', 'convert-graft-file'))) j.add('dangerous', 'git.replace', 'local history', 'git replace changes what commits git shows in place of others');
  },
  config: (args, inv, j) => {
    const p = parse(args, 'f:lez', ['global', 'system', 'local', 'worktree', 'file=', 'blob=', 'type=', 'bool', 'int', 'bool-or-int', 'path', 'expiry-date', 'add', 'replace-all', 'append', 'all', 'value=', 'comment=', 'fixed-value', 'get', 'get-all', 'get-regexp', 'get-urlmatch', 'get-color', 'get-colorbool', 'unset', 'unset-all', 'rename-section', 'remove-section', 'list', 'edit', 'null', 'name-only', 'show-origin', 'show-scope', 'default=', 'includes', 'no-includes']);
    const ops = p.operands;
    const reading = [...p.opts.keys()].some((k) => /^(?:get(?:-\w+)?|unset(?:-all)?|rename-section|remove-section|list|l|edit|e)$/.test(k));
    const [key, value] = text(ops[0]) === 'set' ? [ops[1], ops[2]] : reading || /^(?:get|list|unset|rename-section|remove-section|edit)$/.test(text(ops[0])) ? [] : [ops[0], ops[1]];
    if (key && value) configEntry(text(key), literal(value), inv, j, 'config');
  },
  submodule: (args, inv, j) => {
    if (text(args[0]) === 'deinit' && args.some((w) => /^(?:-f|--force)$/.test(text(w)))) discard(j, 'git submodule deinit -f drops submodule working trees with their changes');
    const at = args.findIndex((w) => text(w) === 'foreach');
    const command = args.slice(at + 1).filter((w) => !/^--(?:recursive|quiet)$/.test(text(w)));
    if (at >= 0 && command.length) j.code(command.map((w) => literal(w) ?? display(w)).join(' '), inv);
  },
  bisect: (args, inv, j) => {
    if (text(args[0]) === 'run' && args.length > 1) j.command(args.slice(1), inv, 'git bisect run');
  },
  rebase: (args, inv, j) => {
    for (const code of optValues(parse(args, 'x:s:X:C:', ['exec=', 'onto=', 'strategy=', 'strategy-option=', 'whitespace=']), 'x', 'exec')) if (code !== '\u0000') j.code(code, inv);
  },
  difftool: (args, inv, j) => {
    for (const code of optValues(parse(args, 'x:t:', ['extcmd=', 'tool=']), 'x', 'extcmd')) if (code !== '\u0000') j.code(code, inv);
  },
};

register(['git'], git);

// ── gh ──

const GH_API: OptionSpec = { short: 'X:H:f:F:p:q:t:i', long: ['method=', 'header=', 'field=', 'raw-field=', 'preview=', 'jq=', 'template=', 'input=', 'include', 'paginate', 'silent', 'slurp', 'verbose', 'hostname=', 'cache='] };

function gh(inv: Invocation, j: Judgement): void {
  const [group, verb, ...rest] = inv.args.map(text);
  if (group === 'api') {
    const p = parseOptions(inv.args.slice(1), GH_API);
    const method = (optValue(p, 'X', 'method') ?? '').toUpperCase();
    const mutation = optValues(p, 'f', 'F', 'field', 'raw-field').some((f) => /^query=\s*mutation\b[\s\S]*\b(?:delete|remove)\w*\s*\(/i.test(f));
    if (method === 'DELETE' || mutation) j.add('dangerous', 'gh.delete', 'github api', `gh api ${method === 'DELETE' ? `-X DELETE ${text(p.operands[0])}` : 'graphql mutation'} deletes on GitHub`);
    if (optValues(p, 'f', 'F', 'field', 'raw-field').some((f) => /^(?:private=false|visibility=public)$/i.test(f))) j.add('dangerous', 'gh.visibility', 'github repository', 'gh api makes a repository public');
    return;
  }
  if (!group) return;
  if (verb === 'delete' || verb === 'delete-asset' || (group === 'extension' && verb === 'remove')) {
    j.add('dangerous', 'gh.delete', `github ${group}`, `gh ${[group, verb, ...rest.filter((r) => !r.startsWith('-'))].join(' ')} deletes on GitHub`);
  }
  // Archiving a repository or adding a key that can log in or push are not deletes, but hard to notice and undo.
  if (group === 'repo' && verb === 'archive') j.add('dangerous', 'gh.delete', 'github repo', `gh repo archive ${rest.filter((r) => !r.startsWith('-')).join(' ')} makes the repository read-only`);
  if ((group === 'ssh-key' || group === 'gpg-key') && verb === 'add') j.add('dangerous', 'gh.key', 'github account', `gh ${group} add gives a key access to the account`);
  if (group === 'repo' && verb === 'edit' && optValue(parseOptions(inv.args.slice(2), { long: ['visibility='] }), 'visibility') === 'public') {
    j.add('dangerous', 'gh.visibility', 'github repository', 'gh repo edit --visibility public makes the repository public');
  }
  if (group === 'alias' && verb === 'set') {
    const p = parseOptions(inv.args.slice(2), { short: 's', long: ['shell', 'clobber'] });
    const expansion = text(p.operands[1]);
    if (hasOpt(p, 's', 'shell') || expansion.startsWith('!')) {
      j.add('dangerous', 'gh.alias', 'gh alias', `gh alias set ${text(p.operands[0])} runs shell code`);
      j.code(expansion.replace(/^!/, ''), inv);
    }
  }
}

register(['gh'], gh);

/** GitLab's and Gitea's CLIs: deleting a repository, a project or a release. */
register(['glab', 'tea', 'fj'], (inv, j) => {
  const [group, verb] = inv.args.map(text);
  if (verb === 'delete' || verb === 'rm' || group === 'delete') j.add('dangerous', 'gh.delete', `${inv.name} ${group}`, `${inv.name} ${inv.args.map(text).join(' ')} deletes on the forge`);
});
