/**
 * Programs that write files: each target is checked against the protected paths. Copies into a
 * directory write `dir/<basename>` (and, into a home, may overwrite any dotfile).
 */
import path from 'node:path';
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, optValues, parseOptions, type OptionSpec } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';
import { treeWrite } from './deletion.ts';
import { writeValues } from './fileTools.ts';

const COPY: OptionSpec = { short: 'abdfHiLlnPpRrsTuvxt:S:m:o:g:DCZ', long: ['archive', 'backup', 'force', 'interactive', 'link', 'dereference', 'no-clobber', 'no-dereference', 'preserve', 'recursive', 'symbolic-link', 'target-directory=', 'no-target-directory', 'update', 'verbose', 'suffix=', 'mode=', 'owner=', 'group=', 'relative', 'parents', 'reflink', 'sparse=', 'strip', 'compare', 'directory', 'remove-destination', 'attributes-only', 'copy-contents', 'one-file-system', 'logical', 'physical'] };

/** cp, mv, install, ln: the destination (a file, or `dir/<basename of each source>`). */
function copyLike(inv: Invocation, j: Judgement): void {
  const parsed = parseOptions(inv.args, COPY);
  const targetDir = optValue(parsed, 't', 'target-directory');
  const noTargetDir = hasOpt(parsed, 'T', 'no-target-directory');
  if (inv.name === 'install' && hasOpt(parsed, 'd', 'directory')) return;
  const operands = parsed.operands;
  const destWord = targetDir !== undefined ? lit(targetDir) : operands[operands.length - 1];
  const sources = targetDir !== undefined ? operands : operands.slice(0, -1);
  if (!destWord || (!sources.length && inv.name !== 'ln')) return;
  const how = `${inv.name} to`;
  // `cp /dev/null f`, `install /dev/null f`, `ln -sf /dev/null f`: the file is emptied; `mv f /dev/null` deletes it.
  if (sources.some((w) => literal(w) === '/dev/null') && inv.name !== 'mv') j.truncate(destWord, inv, `${inv.name} /dev/null to`);
  if (literal(destWord) === '/dev/null' && /^g?mv$/.test(inv.name)) for (const src of sources) j.truncate(src, inv, 'mv to /dev/null');
  const recursive = hasOpt(parsed, 'r', 'R', 'a', 'recursive', 'archive');
  j.write(destWord, inv, how);
  if (!noTargetDir) {
    for (const src of sources) {
      const base = literal(src);
      const dest = literal(destWord);
      if (base !== null && dest !== null) j.write(lit(path.posix.join(dest, path.posix.basename(base))), inv, how);
    }
  }
  if (recursive || sources.some((s) => /\/\*?$|^\.$/.test(literal(s) ?? ''))) treeWrite(destWord, inv, j, `${inv.name} -r into`);
  if (inv.name === 'ln' || inv.name === 'gln') {
    // Writing through the link later in the line writes the file it points to.
    const target = sources[0];
    const link = j.path(destWord, inv);
    if (target && link && !link.unknownRoot) {
      const base = literal(target);
      const dest = literal(destWord);
      j.links.set(link.display, target);
      if (base !== null && dest !== null) j.links.set(j.path(lit(path.posix.join(dest, path.posix.basename(base))), inv)?.display ?? '', target);
    }
  }
}
register(['cp', 'gcp', 'install', 'ln', 'gln', 'mv', 'gmv'], copyLike);

register(['tee'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'aip', long: ['append', 'ignore-interrupts', 'output-error='] });
  for (const f of parsed.operands) writeWithContent(f, inv, j, 'tee to');
});

/** Writes `file` with the command's input, remembered when known (`echo 'x' | tee f && sh f`). */
function writeWithContent(file: WordValue, inv: Invocation, j: Judgement, how: string): void {
  j.write(file, inv, how);
  if (inv.fact.stdin?.kind === 'file' && literal(inv.fact.stdin.file!) === '/dev/null') j.truncate(file, inv, `${inv.name} < /dev/null`);
  const p = j.path(file, inv);
  if (p && !p.unknownRoot && inv.fact.stdin?.text) j.written.set(p.display, inv.fact.stdin.text);
}

register(['sponge'], (inv, j) => {
  for (const f of parseOptions(inv.args, { short: 'a' }).operands) writeWithContent(f, inv, j, 'sponge to');
});

register(['truncate'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'cor:s:', long: ['no-create', 'io-blocks', 'reference=', 'size='] });
  const shrinks = /^(?:0+[KMGTPE]?i?B?|-.*|<.*|\/.*)$/i.test(optValue(parsed, 's', 'size') ?? '') || hasOpt(parsed, 'r', 'reference');
  for (const f of parsed.operands) {
    j.write(f, inv, 'truncate of');
    if (shrinks) j.truncate(f, inv, `truncate ${optValue(parsed, 's', 'size') ?? ''}`);
  }
});

/**
 * dd's `of=FILE`: the rest of the word, globs and all; bash expands a `~` after `of=` as it does in
 * an assignment (`of=~root/../dev/sda` is /dev/sda).
 */
function ddOutput(word: WordValue, inv: Invocation): WordValue | null {
  const [first, ...rest] = word.pieces;
  if (first?.kind !== 'lit' || !first.text.startsWith('of=')) return null;
  let head = first.text.slice(3);
  const tilde = /^~([A-Za-z0-9._-]*)(?=\/|$)/.exec(head);
  if (tilde && word.source.startsWith('of=~')) {
    const user = tilde[1]!;
    const home = inv.fact.scope.home;
    head = (user === '' || user === home.split('/').pop() ? home : user === 'root' ? '/root' : `/home/${user}`) + head.slice(tilde[0].length);
  }
  return { ...word, pieces: head ? [{ kind: 'lit', text: head }, ...rest] : rest };
}

register(['dd'], (inv, j) => {
  const outputs = inv.args.map((w) => ddOutput(w, inv)).filter((w): w is WordValue => w !== null);
  for (const out of outputs) j.write(out, inv, 'dd to');
  if (outputs.length || inv.args.some((w) => display(w).startsWith('of='))) j.add('dangerous', 'dd.write', 'dd', 'dd overwrites its output byte for byte');
});

register(['scp'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: '346ABCOpqRrTvc:D:F:i:J:l:o:P:S:X:' });
  const dest = parsed.operands[parsed.operands.length - 1];
  if (dest && parsed.operands.length >= 2 && !/^[^/]*:/.test(literal(dest) ?? '')) treeWrite(dest, inv, j, 'scp into');
  for (const option of optValues(parsed, 'o')) sshOption(option, inv, j);
});

/** `ssh -o ProxyCommand=…`/`LocalCommand=…` run locally. */
export function sshOption(option: string, inv: Invocation, j: Judgement): void {
  const match = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|Match\s+exec|RemoteCommand)\s*[= ]\s*(.*)$/is.exec(option);
  if (!match) return;
  const remote = /^RemoteCommand$/i.test(match[1]!);
  if (!remote) j.add('dangerous', 'ssh.local-command', 'command', `ssh ${match[1]} runs a local command: ${match[2]}`);
  // RemoteCommand runs on the other machine: judged like `ssh HOST CMD`.
  j.code(match[2]!, remote ? { ...inv, cwd: null } : inv);
}

const TAR: OptionSpec = { short: 'AcdrtuxzjJaZvkmopPsSOWf:C:b:g:I:K:L:N:T:V:X:', long: ['extract', 'get', 'create', 'append', 'update', 'list', 'diff', 'compare', 'delete', 'directory=', 'file=', 'to-command=', 'checkpoint=', 'checkpoint-action=', 'use-compress-program=', 'info-script=', 'new-volume-script=', 'rmt-command=', 'rsh-command=', 'index-file=', 'transform=', 'xform=', 'strip-components=', 'exclude=', 'overwrite', 'unlink-first', 'recursive-unlink', 'remove-files', 'absolute-names', 'keep-old-files', 'skip-old-files', 'gzip', 'bzip2', 'xz', 'zstd', 'verbose', 'no-same-owner', 'same-owner', 'wildcards', 'files-from=', 'owner=', 'group=', 'mode=', 'mtime=', 'sort=', 'format='] };

function tar(inv: Invocation, j: Judgement): void {
  // `tar xzf a.tgz`: the first word may be a bundle of options without a dash.
  const first = literal(inv.args[0] ?? lit('')) ?? '';
  const args = /^[A-Za-z]+$/.test(first) && !first.startsWith('-') ? [lit(`-${first}`), ...inv.args.slice(1)] : inv.args;
  const parsed = parseOptions(args, TAR);
  for (const action of optValues(parsed, 'checkpoint-action')) {
    const code = /^(?:exec|sh)=(.*)$/s.exec(action);
    if (code) {
      j.add('dangerous', 'code.option', 'command', `tar --checkpoint-action runs \`${code[1]}\``);
      j.code(code[1]!, inv);
    }
  }
  for (const program of optValues(parsed, 'to-command', 'use-compress-program', 'I', 'info-script', 'F', 'new-volume-script', 'rsh-command', 'rmt-command')) {
    if (program && program !== '\u0000') {
      j.add('dangerous', 'code.option', 'command', `tar runs \`${program}\``);
      j.code(program, inv);
    }
  }
  if (hasOpt(parsed, 'x', 'extract', 'get')) {
    const dir = optValue(parsed, 'C', 'directory');
    treeWrite(dir !== undefined ? lit(dir) : lit('.'), inv, j, 'tar extracts into');
    // `--one-top-level[=DIR]` extracts into DIR (under `-C`); its value is optional, so it is a flag whose `=DIR` is read.
    const top = optValue(parsed, 'one-top-level');
    if (top && top !== '\u0000') treeWrite(lit(path.posix.isAbsolute(top) ? top : path.posix.join(dir ?? '.', top)), inv, j, 'tar extracts into');
    if (hasOpt(parsed, 'P', 'absolute-names')) j.add('dangerous', 'write.anywhere', 'other path', 'tar -P extracts to the absolute paths stored in the archive');
  }
  if (hasOpt(parsed, 'remove-files')) for (const f of parsed.operands) j.remove(f, inv, true, 'tar --remove-files of');
}
register(['tar', 'gtar', 'bsdtar'], tar);

register(['unzip'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'ZcflpTtuvzbBCDEFKLMNoqsVWXYx:d:P:O:I:' });
  if (hasOpt(parsed, 'l', 't', 'v', 'Z', 'p', 'c', 'z')) return;
  const dir = optValue(parsed, 'd');
  treeWrite(dir !== undefined ? lit(dir) : lit('.'), inv, j, 'unzip into');
});

/** 7-Zip: `x`/`e` extract into `-oDIR` (or the cwd); `a`, `u`, `d`, `rn` rewrite the archive. */
register(['7z', '7za', '7zr', '7zz'], (inv, j) => {
  const words = inv.args.map((w) => literal(w));
  const [command, archive] = inv.args.filter((w) => !(literal(w) ?? '').startsWith('-'));
  const verb = command ? literal(command)?.toLowerCase() : undefined;
  const out = words.filter((w) => w?.startsWith('-o')).pop();
  if (verb === 'x' || verb === 'e') treeWrite(lit(out ? out.slice(2) || '.' : '.'), inv, j, `${inv.name} ${verb} extracts into`);
  else if (archive && verb && ['a', 'u', 'd', 'rn'].includes(verb)) j.write(archive, inv, `${inv.name} ${verb} writes`);
});

/** ar: `x` extracts members into `--output DIR` (or the cwd). */
register(['ar', 'gar'], (inv, j) => {
  const words = inv.args.map((w) => literal(w) ?? '');
  if (!/^-?[a-zA-Z]*x/.test(words.find((w) => !w.startsWith('--')) ?? '')) return;
  const at = words.findIndex((w) => w === '--output' || w.startsWith('--output='));
  const dir = at < 0 ? '.' : words[at]!.includes('=') ? words[at]!.slice(9) : words[at + 1] ?? '.';
  treeWrite(lit(dir), inv, j, 'ar x extracts into');
});

const CPIO: OptionSpec = { short: 'ioptdmuvfrabcBLSVAH:F:O:I:D:E:M:R:C:', long: ['extract', 'create', 'pass-through', 'list', 'directory=', 'file=', 'format=', 'make-directories', 'unconditional', 'absolute-filenames', 'no-absolute-filenames', 'to-stdout', 'pattern-file=', 'owner=', 'block-size=', 'message=', 'rsh-command=', 'io-size=', 'append', 'null', 'rename', 'verbose', 'quiet'] };

/** cpio: `-i` extracts into `-D DIR` (or the cwd), `-p` copies into its directory operand, `-o -F FILE` writes an archive. */
register(['cpio'], (inv, j) => {
  const parsed = parseOptions(inv.args, CPIO);
  const dir = optValue(parsed, 'D', 'directory');
  if (hasOpt(parsed, 'i', 'extract') && !hasOpt(parsed, 't', 'list', 'to-stdout')) {
    treeWrite(lit(dir ?? '.'), inv, j, 'cpio extracts into');
    if (hasOpt(parsed, 'absolute-filenames')) j.add('dangerous', 'write.anywhere', 'other path', 'cpio --absolute-filenames extracts to the absolute paths stored in the archive');
  }
  if (hasOpt(parsed, 'p', 'pass-through') && parsed.operands[0]) treeWrite(parsed.operands[0], inv, j, 'cpio -p copies into');
  if (hasOpt(parsed, 'o', 'create')) for (const f of optValues(parsed, 'F', 'O', 'file')) if (f !== '\u0000') j.write(lit(f), inv, 'cpio writes');
  for (const program of optValues(parsed, 'rsh-command')) {
    j.add('dangerous', 'code.option', 'command', `cpio runs \`${program}\` to reach a remote archive`);
    if (program !== '\u0000') j.code(program, inv);
  }
});

register(['zip'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'abcdDeFfghjJklLmoqrRSTuvVwXyz0123456789A:b:i:n:O:P:t:x:', long: ['unzip-command=', 'test', 'move'], singleDashLong: false });
  const tt = inv.args.findIndex((w) => literal(w) === '-TT');
  const command = tt >= 0 ? literal(inv.args[tt + 1] ?? lit('')) : optValue(parsed, 'unzip-command');
  if (command) {
    j.add('dangerous', 'code.option', 'command', `zip runs \`${command}\` to test the archive`);
    j.code(command, inv);
  }
  if (hasOpt(parsed, 'm', 'move')) for (const f of parsed.operands.slice(1)) j.remove(f, inv, true, 'zip -m moves');
});

/** In-place editors: `sed -i`, `yq -i`, `awk -i inplace`, `perl -i` write their file operands. */
register(['sed', 'gsed'], (inv, j) => {
  // `-i` takes its backup suffix attached (`-i.bak`); BSD sed takes it in the next word, and an empty
  // one (`-i ''`) is that suffix, not a script.
  const args = inv.args
    .filter((w, k) => !(literal(w) === '' && literal(inv.args[k - 1] ?? lit('')) === '-i'))
    .map((w) => (/^-[nrEsuz]*i./.test(literal(w) ?? '') ? lit(literal(w)!.replace(/^(-[nrEsuz]*i).*$/s, '$1')) : w));
  const parsed = parseOptions(args, { short: 'nrEsuzie:f:l:', long: ['in-place', 'expression=', 'file=', 'quiet', 'silent', 'regexp-extended', 'separate', 'null-data', 'posix', 'debug', 'sandbox', 'follow-symlinks', 'line-length=', 'unbuffered', 'zero-terminated', 'help', 'version'] });
  const scripts = [...optValues(parsed, 'e', 'expression')];
  const files = scripts.length || hasOpt(parsed, 'f', 'file') ? parsed.operands : parsed.operands.slice(1);
  if (!scripts.length && parsed.operands[0]) scripts.push(literal(parsed.operands[0]) ?? '');
  const inPlace = hasOpt(parsed, 'i', 'in-place') && !hasOpt(parsed, 'sandbox');
  if (inPlace) for (const f of files) j.write(f, inv, 'sed -i of');
  // `sed -i '1,$d'`, `sed -i d`: every line deleted.
  if (inPlace && scripts.some((sc) => /^\s*(?:1\s*,\s*\$)?\s*d\s*$/.test(sc))) for (const f of files) j.truncate(f, inv, 'sed -i d');
  for (const script of scripts) sedScript(script, inv, j);
});

/** A sed address (`1`, `$`, `/re/`, `1,5`, `1!`, `0~4`) before a command letter, with the blanks after it. */
const SED_ADDRESS = String.raw`(?:(?:\d+(?:~\d+)?|\$|\/(?:[^/\\]|\\.)*\/[IM]*)(?:\s*,\s*(?:\d+|\$|\/(?:[^/\\]|\\.)*\/[IM]*|[+~]\d+))?\s*(?:!\s*)?)?`;
// (One `\s*` between each part: two in a row backtrack on long runs of blanks.)
const SED_E = new RegExp(String.raw`(?:^|[;\n{}])\s*${SED_ADDRESS}e(?:\s+([^;\n}]*))?(?=$|[;\n}])`, 'm');
const SED_S_E = /s(.)((?:(?!\1).){0,500})\1((?:(?!\1).){0,500})\1[gpiImM0-9w]*e/;

/** sed's `e` command and `s///e` flag run shell commands; `w file` writes a file. */
function sedScript(script: string, inv: Invocation, j: Judgement): void {
  const e = SED_E.exec(script);
  const substitution = SED_S_E.exec(script);
  if (e || substitution) {
    j.add('dangerous', 'code.option', 'command', `the sed script \`${script}\` runs shell commands`);
    // `e CMD` runs CMD; a bare `e` runs each input line; `s/…/CMD/e` runs the replacement.
    if (e?.[1]?.trim()) j.code(e[1], inv);
    else if (e && inv.fact.stdin?.text) j.code(inv.fact.stdin.text, inv);
    if (substitution?.[3] && !/\\\d|&/.test(substitution[3])) j.code(substitution[3], inv);
  }
  for (const m of script.matchAll(/(?:^|[;\n}]\s*|\/[gpiImM0-9]*)w\s+(\S+)/g)) j.write(lit(m[1]!), inv, 'sed w to');
}

register(['yq'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'iPCMNrejI:o:p:', long: ['inplace', 'output-format=', 'input-format='] });
  if (hasOpt(parsed, 'i', 'inplace')) for (const f of parsed.operands.slice(1)) j.write(f, inv, 'yq -i of');
});

register(['ssh-import-id', 'ssh-import-id-gh', 'ssh-import-id-lp'], (_inv, j) => {
  j.add('dangerous', 'write.protected', '~/.ssh', 'ssh-import-id adds keys to ~/.ssh/authorized_keys: whoever holds them can log in');
});

register(['ssh-copy-id'], (_inv, j) => j.add('dangerous', 'ssh.authorize', 'remote', 'ssh-copy-id installs a key on another machine'));

register(['patch'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'bcelnNRstuvfEZTp:d:D:i:o:r:B:F:V:Y:z:g:', long: ['directory=', 'input=', 'output=', 'dry-run'] });
  if (hasOpt(parsed, 'dry-run')) return;
  const dir = optValue(parsed, 'd', 'directory');
  if (dir) treeWrite(lit(dir), inv, j, 'patch in');
  if (parsed.operands[0]) j.write(parsed.operands[0], inv, 'patch of');
  writeValues(optValues(parsed, 'o', 'output'), inv, j, 'patch writes');
});

register(['wget', 'curl', 'aria2c', 'http', 'https', 'xh', 'fetch'], (inv, j) => {
  const spec: OptionSpec =
    inv.name === 'curl'
      ? { short: '#0123456:aBbcfGgIiJjkLlMmNnOpqRsSvVZzo:d:e:F:H:K:T:u:U:w:x:X:y:Y:A:b:c:C:D:E:h:m:P:Q:r:t:z:', long: ['output=', 'output-dir=', 'remote-name', 'data=', 'header=', 'config=', 'dump-header=', 'cookie-jar=', 'trace=', 'trace-ascii=', 'stderr=', 'libcurl=', 'create-dirs', 'silent', 'location', 'request='] }
      : inv.name === 'wget'
        ? { short: 'bcdFhkKmNpqrSvxEHLnc46O:o:a:P:i:t:T:w:Q:e:l:A:R:D:I:X:U:B:', long: ['output-document=', 'output-file=', 'append-output=', 'directory-prefix=', 'input-file=', 'execute=', 'quiet', 'recursive', 'mirror', 'user-agent=', 'header=', 'post-data=', 'post-file=', 'config='] }
        : { short: 'o:d:', long: ['output=', 'dir=', 'download'] };
  const parsed = parseOptions(inv.args, spec);
  const outputs = inv.name === 'wget' ? optValues(parsed, 'O', 'output-document', 'o', 'output-file', 'a', 'append-output') : optValues(parsed, 'o', 'output', 'D', 'dump-header', 'c', 'cookie-jar', 'trace', 'trace-ascii', 'stderr');
  for (const out of outputs) if (out && out !== '-' && out !== '\u0000') j.write(lit(out), inv, `${inv.name} saves to`);
  const dir = optValue(parsed, 'P', 'directory-prefix', 'output-dir', 'd', 'dir');
  if (dir) treeWrite(lit(dir), inv, j, `${inv.name} downloads into`);
  for (const out of outputs) if (out && out !== '-') markDownloaded(out, inv, j);
  if (inv.name === 'wget' && !outputs.length) for (const url of parsed.operands) markDownloaded(path.posix.basename(literal(url) ?? '') || 'index.html', inv, j);
  if (inv.name === 'curl' && hasOpt(parsed, 'O', 'remote-name')) for (const url of parsed.operands) markDownloaded(path.posix.basename(literal(url) ?? ''), inv, j);
});

/** A downloaded file's content is unknown: running it later in the line is code from the network. */
function markDownloaded(file: string, inv: Invocation, j: Judgement): void {
  const p = j.path(lit(file), inv);
  if (p && !p.unknownRoot) j.written.set(p.display, null);
}
