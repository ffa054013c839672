/** Deleting and clobbering trees: rm, find -delete, rsync --delete, mv, chmod/chown -R, shred, rimraf. */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { protectedTree } from '../protectedPaths.ts';
import { display, isDynamic, literal, type WordValue } from '../words.ts';

const RM: OptionSpec = { short: 'dfiIrRv', long: ['dir', 'force', 'interactive=', 'one-file-system', 'no-preserve-root', 'preserve-root=', 'recursive', 'verbose', 'help', 'version'] };

function rm(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, RM);
  if (hasOpt(parsed, 'help', 'version')) return;
  const recursive = hasOpt(parsed, 'r', 'R', 'recursive', 'no-preserve-root');
  deleteOperands(parsed.operands, inv, j, recursive, 'rm');
  if (hasOpt(parsed, 'f', 'force') && !recursive) j.add('dangerous', 'delete.force', operandClass(parsed.operands, inv, j), `rm -f ${parsed.operands.map(display).join(' ')}`);
}

/** Deletes each operand; run-time operands (`$f`, xargs input) ask. */
function deleteOperands(operands: WordValue[], inv: Invocation, j: Judgement, recursive: boolean, how: string): void {
  for (const word of operands) j.remove(word, inv, recursive, how);
  const dynamic = operands.filter(isDynamic);
  if (inv.moreArgs || dynamic.length) {
    j.add('dangerous', 'delete.computed', 'unknown path', `${how} of paths decided when it runs (${inv.moreArgs ? 'from its input' : dynamic.map(display).join(' ')})`);
  }
}

function operandClass(operands: WordValue[], inv: Invocation, j: Judgement): string {
  const first = operands[0] && j.path(operands[0], inv);
  return first ? j.targetClass(first) : 'unknown path';
}

register(['rm', 'srm', 'grm', 'wipe'], rm);
register(['rimraf', 'del', 'del-cli', 'rmrf'], (inv, j) => deleteOperands(parseOptions(inv.args, { long: ['glob', 'preserve-root', 'no-preserve-root', 'verbose', 'dry-run'] }).operands, inv, j, true, inv.name));
register(['unlink', 'shred'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'fn:s:uvxz', long: ['force', 'iterations=', 'random-source=', 'size=', 'remove', 'verbose', 'exact', 'zero'] });
  if (inv.name === 'shred') for (const w of parsed.operands) j.add('dangerous', 'delete.shred', operandClass([w], inv, j), `shred destroys ${display(w)} beyond recovery`);
  deleteOperands(parsed.operands, inv, j, false, inv.name);
});

/** `find … -delete` and `find … -exec rm …`: each start point, and the command it runs. */
function find(inv: Invocation, j: Judgement): void {
  const words = inv.args;
  let i = 0;
  while (i < words.length && /^-[HLPO]/.test(literal(words[i]!) ?? '')) i += 1;
  const starts: WordValue[] = [];
  for (; i < words.length; i += 1) {
    const text = literal(words[i]!) ?? '';
    if (text.startsWith('-') || text === '(' || text === '!') break;
    starts.push(words[i]!);
  }
  if (!starts.length) starts.push({ pieces: [{ kind: 'lit', text: '.' }], source: '.', quoted: false });
  const rest = words.slice(i);
  const texts = rest.map((w) => literal(w) ?? '');
  if (texts.includes('-delete')) for (const start of starts) j.remove(start, inv, true, 'find -delete in', 'delete.find');
  texts.forEach((t, k) => {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(t)) return;
    const tail = rest.slice(k + 1);
    const end = tail.findIndex((w) => [';', '+'].includes(literal(w) ?? ''));
    const command = end >= 0 ? tail.slice(0, end) : tail;
    j.command(onEveryFile(command, starts[0]!), { ...inv, moreArgs: true }, `find ${t}`);
  });
}
register(['find', 'gfind'], find);

/**
 * A command run on every file found under `start` (`find … -exec CMD {} +`, `fd … -x CMD`): `{}` stands
 * for the start point, and a delete or permission change on every file is one of the whole tree.
 */
export function onEveryFile(command: WordValue[], start: WordValue): WordValue[] {
  const filled = command.map((w) => (literal(w) === '{}' ? start : w));
  if (!command.some((w) => literal(w) === '{}')) filled.push(start);
  const at = filled.findIndex((w) => TREE_FLAG[(literal(w) ?? '').split('/').pop() ?? ''] !== undefined);
  if (at >= 0) filled.splice(at + 1, 0, { pieces: [{ kind: 'lit', text: TREE_FLAG[literal(filled[at]!)!.split('/').pop()!]! }], source: '', quoted: false });
  return filled;
}
const TREE_FLAG: Record<string, string> = { rm: '-r', chmod: '-R', chown: '-R', chgrp: '-R', shred: '-u', unlink: '' };

/** `fd PATTERN [PATH…] -x|-X CMD…`: the command runs on what fd finds under each path. */
register(['fd', 'fdfind'], (inv, j) => {
  const texts = inv.args.map((w) => literal(w) ?? '');
  const at = texts.findIndex((t) => ['-x', '--exec', '-X', '--exec-batch'].includes(t));
  if (at < 0) return;
  const before = parseOptions(inv.args.slice(0, at), { short: 'HIsiFgaLpd:t:e:E:j:c:', long: ['hidden', 'no-ignore', 'type=', 'extension=', 'exclude=', 'max-depth=', 'min-depth=', 'threads=', 'color=', 'changed-within=', 'changed-before=', 'size=', 'owner=', 'base-directory=', 'search-path='] });
  const start = before.operands[1] ?? { pieces: [{ kind: 'lit' as const, text: optValue(before, 'base-directory', 'search-path') ?? '.' }], source: '.', quoted: false };
  const end = texts.indexOf(';', at);
  j.command(onEveryFile(inv.args.slice(at + 1, end > at ? end : undefined), start), { ...inv, moreArgs: true }, `fd ${texts[at]}`);
});

const RSYNC: OptionSpec = { short: 'vqcarRbuldLkKHpAXEogDtUNOJSnWxCyhPizfe:B:T:M:', long: ['delete', 'delete-before', 'delete-during', 'delete-delay', 'delete-after', 'delete-excluded', 'remove-source-files', 'del', 'archive', 'recursive', 'rsh=', 'exclude=', 'include=', 'filter=', 'files-from=', 'backup-dir=', 'suffix=', 'partial-dir=', 'temp-dir=', 'compare-dest=', 'copy-dest=', 'link-dest=', 'chown=', 'chmod=', 'rsync-path=', 'dry-run', 'info=', 'log-file=', 'password-file=', 'port='] };

function rsync(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, RSYNC);
  if (hasOpt(parsed, 'n', 'dry-run')) return;
  const operands = parsed.operands.filter((w) => !/^[\w.-]+@?[\w.-]*:/.test(literal(w) ?? ''));
  const dest = parsed.operands[parsed.operands.length - 1];
  const deletes = [...parsed.opts.keys()].some((k) => k.startsWith('del'));
  if (dest && operands.includes(dest) && parsed.operands.length >= 2) {
    if (deletes) j.remove(dest, inv, true, 'rsync --delete into', 'delete.sync');
    treeWrite(dest, inv, j, 'rsync into');
  }
  if (hasOpt(parsed, 'remove-source-files')) for (const src of operands.slice(0, -1)) j.remove(src, inv, false, 'rsync --remove-source-files of');
  const shell = optValue(parsed, 'e', 'rsh');
  if (shell) j.code(shell, inv);
}
register(['rsync'], rsync);

/** Copying a tree into a directory: into a home overwrites dotfiles; protected places ask. */
export function treeWrite(dest: WordValue, inv: Invocation, j: Judgement, how: string): void {
  const p = j.path(dest, inv);
  if (!p) return;
  const tree = protectedTree(p, j.facts);
  if (tree) j.add('dangerous', 'write.tree', tree, `${how} ${p.display}: ${tree === 'home' ? 'can overwrite any dotfile in a home directory' : 'a system directory'}`);
  j.write(dest, inv, how);
}

const CHMOD: OptionSpec = { short: 'cfvRHLP', long: ['changes', 'silent', 'quiet', 'verbose', 'no-preserve-root', 'preserve-root', 'reference=', 'recursive', 'from=', 'dereference', 'no-dereference', 'help', 'version'] };

function chmodLike(inv: Invocation, j: Judgement): void {
  // chmod modes like `-w` look like options: take them as operands.
  const args = inv.name === 'chmod' ? inv.args.map((w) => (/^-[rwxXst]+$/.test(literal(w) ?? '') ? { ...w, pieces: [{ kind: 'lit' as const, text: `a${literal(w)}` }] } : w)) : inv.args;
  const parsed = parseOptions(args, CHMOD);
  const recursive = hasOpt(parsed, 'R', 'recursive');
  const reference = hasOpt(parsed, 'reference');
  const spec = reference ? undefined : parsed.operands[0];
  const files = reference ? parsed.operands : parsed.operands.slice(1);
  const what = inv.name === 'chmod' ? 'permissions' : 'ownership';
  if (recursive) for (const f of files) j.changeTree(f, inv, `recursive ${inv.name} of`, `${inv.name}.recursive`);
  if (inv.name === 'chmod' && spec && /^0?[0-7]?[0-7]{2}[2367]$|(?:^|,)[ugo]*[oa][ugoa]*[+=][rwxXst]*w/.test(literal(spec) ?? '')) {
    j.add('dangerous', 'chmod.world-writable', files[0] ? operandClass(files, inv, j) : 'path', `chmod ${literal(spec)} makes files writable by anyone`);
  }
  for (const f of files) {
    const p = j.path(f, inv);
    if (p && !recursive && protectedTree(p, j.facts)) j.add('dangerous', `${inv.name}.protected`, protectedTree(p, j.facts)!, `${inv.name} changes the ${what} of ${p.display}`);
  }
  for (const f of files) j.write(f, inv, `${inv.name} of`);
}
register(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr'], chmodLike);

/** `mv`: the source disappears from where it was; the destination is written. */
function mv(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, { short: 'bfinuvTZt:S:', long: ['backup', 'force', 'interactive', 'no-clobber', 'no-target-directory', 'target-directory=', 'update', 'verbose', 'suffix=', 'strip-trailing-slashes', 'exchange', 'no-copy', 'context', 'debug'] });
  const target = optValue(parsed, 't', 'target-directory');
  const sources = target === undefined ? parsed.operands.slice(0, -1) : parsed.operands;
  for (const src of sources) {
    const p = j.path(src, inv);
    const tree = p && protectedTree(p, j.facts);
    if (p && tree) j.add('hardline', 'delete.tree', tree, `mv moves ${p.display} away: ${tree === 'home' ? 'a home directory' : 'a system directory'}`);
    else j.remove(src, inv, false, 'mv away');
  }
}
register(['mv', 'gmv'], mv);
