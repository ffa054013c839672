/**
 * The judging state for one command line: the findings so far, and the ways rules hand work back —
 * judge a path written or deleted, a nested piece of shell code, or another command's words.
 */
import type { CommandFact } from './commandFacts.ts';
import { classifyWrite, namesHomeDotenv, namesProcessEnvironment, protectedTree, resolvePath, type PathFacts, type ResolvedPath } from './protectedPaths.ts';
import { isHomeDotenv } from '../secrets/secretFiles.ts';
import type { Finding, JudgeContext } from './types.ts';
import { display, lit, literal, type WordValue } from './words.ts';

/** One command as the rules see it, after wrappers (`sudo`, `env`, `xargs`, …) are peeled off. */
export interface Invocation {
  /** The program's basename, lowercased (`/bin/RM` → `rm`). */
  name: string;
  args: WordValue[];
  fact: CommandFact;
  /** Where it runs: the line's cwd, or another set by a wrapper (`env -C`, `git -C`). */
  cwd: string | null;
  /** Wrappers it runs under, outermost first. */
  wrappers: string[];
  /** Inside a container or chroot: maps a path to the host path it reaches, or null if none. */
  mapPath: ((p: ResolvedPath) => ResolvedPath | null) | null;
  /** More arguments are appended at run time (xargs, parallel, `find -exec … {}`). */
  moreArgs: boolean;
}

export type ProgramRule = (inv: Invocation, j: Judgement) => void;

/** Nested code is judged up to this depth; deeper nesting is itself a finding. */
export const MAX_DEPTH = 8;

export interface JudgementHooks {
  /** Judges `text` as bash code run by `inv` (nested one level deeper); `strict` as in `judgeText`. */
  code(text: string, inv: Invocation, j: Judgement, strict: boolean, vars?: ReadonlyMap<string, string | null>): void;
  /** Judges `words` as a command run by `inv` (unwrapping again). */
  command(words: WordValue[], inv: Invocation, j: Judgement, wrapper: string): void;
}

export class Judgement {
  readonly findings: Finding[] = [];
  /** Files written earlier in the line, with their content when known (`echo … > f && sh f`). */
  readonly written = new Map<string, string | null>();
  /** Symbolic links made earlier in the line: writing the link writes its target. */
  readonly links = new Map<string, WordValue>();
  /** Code judged inside a container or chroot keeps its path mapping (see `Invocation.mapPath`). */
  mapPath: Invocation['mapPath'] = null;
  /** The line of the outermost command being judged, given to each finding (nested code keeps its parent's). */
  line: number | null = null;

  constructor(
    readonly ctx: JudgeContext,
    private readonly hooks: JudgementHooks,
    readonly depth = 0,
  ) {}

  get facts(): PathFacts {
    return { home: this.ctx.home, hermesHome: this.ctx.hermesHome, cwd: this.ctx.cwd ?? null };
  }

  add(level: Finding['level'], rule: string, target: string, why: string): void {
    if (this.findings.some((f) => f.rule === rule && f.target === target && f.level === level)) return;
    this.findings.push({ level, rule, target, why, ...(this.line === null ? {} : { line: this.line }) });
  }

  /**
   * Whether `display` (a resolved path) was written earlier in the line, itself or as part of a directory
   * written then (`git clone … /tmp/r && bash /tmp/r/install.sh`); `content` when known.
   */
  writtenBefore(display: string): { content: string | null } | null {
    if (this.written.has(display)) return { content: this.written.get(display) ?? null };
    for (const dir of this.written.keys()) if (dir !== '/' && display.startsWith(`${dir.replace(/\/$/, '')}/`)) return { content: null };
    return null;
  }

  /** A judgement of the same line whose findings are kept apart (to weigh before adding them). */
  probe(): Judgement {
    const probe = new Judgement(this.ctx, this.hooks, this.depth + 1);
    probe.mapPath = this.mapPath;
    probe.line = this.line;
    return probe;
  }

  /**
   * Judges nested code one level deeper; too deep is itself a finding. `strict: false` for text that
   * may not be shell code at all (strings inside interpreter code): only its effects count. `vars`:
   * variables the code starts with (`sh -c '…' _ ARG` binds `$1`).
   */
  code(text: string, inv: Invocation, strict = true, vars?: ReadonlyMap<string, string | null>): void {
    if (this.depth >= MAX_DEPTH) {
      this.add('dangerous', 'shell.too-nested', 'command', 'code nested deeper than hermes follows');
      return;
    }
    this.hooks.code(text, inv, this, strict, vars);
  }

  command(words: WordValue[], inv: Invocation, wrapper: string): void {
    this.hooks.command(words, inv, this, wrapper);
  }

  /** The host path a word names, or null when it cannot reach the host (inside a container). */
  path(word: WordValue, inv: Invocation): ResolvedPath | null {
    const resolved = resolvePath(word, inv.cwd);
    return inv.mapPath ? inv.mapPath(resolved) : resolved;
  }

  /** A file written or replaced: protected classes ask (or are refused). */
  write(word: WordValue, inv: Invocation, how: string): void {
    const p = this.path(word, inv);
    if (!p) return;
    for (const c of classifyWrite(p, this.facts)) this.add(c.level, 'write.protected', c.target, `${how} ${c.why}`);
    const target = this.links.get(p.display);
    if (target && target !== word) this.write(target, inv, `${how} ${p.display}, a link to`);
    const text = literal(word);
    if (text !== null && !p.unknownRoot) this.written.set(p.display, this.written.get(p.display) ?? null);
  }

  /** A word that may name a file read (`cat F`, `< F`, `--env-file=F`): `$HERMES_HOME/.env` asks. */
  read(word: WordValue, inv: Invocation, how: string): void {
    const text = literal(word);
    // `--env-file=F`, curl's `-F f=@F` and `-d @F`, `file://F`: the file is after the option or scheme.
    const inner = text === null ? null : /^(?:[^=]*=)?[@<]?(?:file:\/\/(?=\/))?(.*)$/is.exec(text)![1]!;
    const option = inner !== null && inner !== text ? lit(inner) : null;
    for (const candidate of option ? [word, option] : [word]) {
      const p = this.path(candidate, inv);
      if (!p) continue;
      // A directory decided at run time: `$(ls -d ~/.hermes)/.env`, `cd /proc/$PPID && cat environ`.
      const last = p.unknownRoot ? p.segments.at(-1)?.text.toLowerCase() : undefined;
      if (last === '.env' && /hermes/i.test(candidate.source)) this.add('dangerous', 'read.secrets', '$HERMES_HOME/.env', `${how} ${display(candidate)}: likely hermes's API keys and other secrets`);
      if (namesProcessEnvironment(p) || last === 'environ') this.add('dangerous', 'read.secrets', 'process environment', `${how} ${p.display}: another process's environment (hermes's holds its API keys)`);
      const seen = [p, ...this.throughLinks(p)].find((q) => namesHomeDotenv(q, this.facts) || isHomeDotenvOnDisk(q, this.facts));
      if (seen) this.add('dangerous', 'read.secrets', '$HERMES_HOME/.env', `${how} ${p.display}${seen === p ? '' : ` (${seen.display})`}: hermes's API keys and other secrets`);
    }
  }

  /** What `p` names through links made earlier in the line (`ln -s ~/.hermes /tmp/h && cat /tmp/h/.env`). */
  private throughLinks(p: ResolvedPath): ResolvedPath[] {
    const out: ResolvedPath[] = [];
    for (const [link, target] of this.links) {
      if (!p.display.startsWith(`${link}/`)) continue;
      const t = literal(target);
      if (t !== null) out.push(resolvePath(lit(`${t.replace(/^~(?=\/|$)/, this.ctx.home)}/${p.display.slice(link.length + 1)}`), this.ctx.cwd ?? null));
    }
    return out;
  }

  /** Deletes (or, with `recursive`, deletes a tree): root, system directories and homes are refused. */
  remove(word: WordValue, inv: Invocation, recursive: boolean, how: string, rule = recursive ? 'delete.recursive' : 'delete'): void {
    const p = this.path(word, inv);
    if (!p) {
      if (recursive) this.add('dangerous', rule, 'container', `${how} ${display(word)} inside a container`);
      return;
    }
    const tree = recursive ? protectedTree(p, this.facts) : null;
    if (tree) {
      this.add('hardline', 'delete.tree', tree, `${how} ${p.display || display(word)}: ${tree === 'home' ? 'a home directory' : tree === '/' ? 'the whole file system' : 'a system directory'}`);
      return;
    }
    const classes = classifyWrite(p, this.facts);
    for (const c of classes) this.add(c.level, 'write.protected', c.target, `${how} ${c.why}`);
    if (recursive) this.add('dangerous', rule, this.targetClass(p), `${how} ${p.display || display(word)} and everything in it`);
  }

  /** Emptying a file is deleting what it held: it asks, except for device files. */
  truncate(word: WordValue, inv: Invocation, how: string): void {
    const p = this.path(word, inv);
    if (!p || /^\/dev\//.test(p.display)) return;
    this.add('dangerous', 'delete.truncate', this.targetClass(p), `${how} empties ${p.display || display(word)}`);
  }

  /** A changed tree (chmod/chown -R): the same refusals as a recursive delete. */
  changeTree(word: WordValue, inv: Invocation, how: string, rule: string): void {
    const p = this.path(word, inv);
    if (!p) return;
    const tree = protectedTree(p, this.facts);
    if (tree) this.add('hardline', rule, tree, `${how} ${p.display}: ${tree === 'home' ? 'a home directory' : tree === '/' ? 'the whole file system' : 'a system directory'}`);
    else this.add('dangerous', rule, this.targetClass(p), `${how} ${p.display}`);
  }

  /** The class an ordinary path belongs to, for approvals that should not spill over. */
  targetClass(p: ResolvedPath): string {
    if (p.unknownRoot) return 'unknown path';
    const protectedClass = classifyWrite(p, this.facts)[0];
    if (protectedClass) return protectedClass.target;
    const cwd = this.ctx.cwd;
    if (cwd && (p.display === cwd || p.display.startsWith(`${cwd.replace(/\/$/, '')}/`))) return 'working tree';
    if (/^\/(?:tmp|var\/tmp|private\/tmp)(?:\/|$)/.test(p.display)) return 'temp';
    if (p.display === this.ctx.home) return 'home';
    return 'other path';
  }
}

/**
 * A literal path that reaches the home `.env` on disk through a link made before this command
 * (`ln -s ~/.hermes /tmp/h` earlier, then `cat /tmp/h/.env`), or a hard link to it.
 */
function isHomeDotenvOnDisk(p: ResolvedPath, facts: PathFacts): boolean {
  if (p.unknownRoot || p.segments.length === 0 || p.segments.some((s) => s.re !== null)) return false;
  return isHomeDotenv(p.display, facts.hermesHome);
}
