/**
 * Programs that write a file named in an option or operand, checked against the protected paths:
 * line editors (`ed`, `ex`, `vim -es`, `sudoedit`), text tools (`sort -o`, `uniq IN OUT`, `shuf -o`,
 * `split`, `iconv -o`), decoders and converters (`base64 -o`, `xxd IN OUT`, `pandoc -o`,
 * `openssl -out`, `gpg -o`), ssh-keygen's key and known_hosts files, and `shfmt -w`.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { hasOpt, optValue, optValues, parseOptions, type OptionSpec, type ParsedOptions } from '../options.ts';
import { register } from '../programRules.ts';
import { lit, literal } from '../words.ts';
import { treeWrite } from './deletion.ts';

/** Writes each known value (an unknown one, `\0`, names nothing to check). */
export function writeValues(values: string[], inv: Invocation, j: Judgement, how: string): void {
  for (const v of values) if (v && v !== '-' && v !== '\u0000') j.write(lit(v), inv, how);
}

/** Options whose value is a program the tool runs (`sort --compress-program`, `split --filter`). */
function programOption(values: string[], inv: Invocation, j: Judgement): void {
  for (const v of values) {
    if (!v || v === '\u0000') continue;
    j.add('dangerous', 'code.option', 'command', `${inv.name} runs \`${v}\``);
    j.code(v, inv);
  }
}

// ── line editors ──

const ED: OptionSpec = { short: 'EGlrsvp:', long: ['extended-regexp', 'traditional', 'loose-exit-status', 'prompt=', 'restricted', 'quiet', 'silent', 'verbose', 'strip-trailing-cr', 'help', 'version'] };

/** ed edits its file operand; commands on stdin starting with `!` (or `w !`, `r !`, `e !`) run in the shell. */
register(['ed', 'red'], (inv, j) => {
  const p = parseOptions(inv.args, ED);
  if (hasOpt(p, 'help', 'version')) return;
  for (const f of p.operands.filter((w) => !(literal(w) ?? '').startsWith('!'))) j.write(f, inv, `${inv.name} edits`);
  const script = inv.fact.stdin?.text;
  if (!script || inv.name === 'red' || hasOpt(p, 'r', 'restricted')) return;
  let text = false;
  for (const line of script.split('\n')) {
    if (text) {
      text = line !== '.';
      continue;
    }
    const bang = /^[\d.$,;+\-'\sa-z]*?(?:[erwW]\s*)?!(.*)$/.exec(line);
    if (bang?.[1]?.trim()) {
      j.add('dangerous', 'code.option', 'command', `the ed script runs \`${bang[1]}\``);
      j.code(bang[1], inv);
    }
    text = /^[\d.$,;+\-'\s]*[aic]$/.test(line.trim());
  }
});

const VIM: OptionSpec = { short: 'c:S:u:U:i:T:W:w:t:q:', long: ['cmd=', 'startuptime=', 'servername=', 'listen=', 'clean', 'noplugin', 'not-a-term', 'ttyfail', 'headless', 'embed'] };

/** `ex FILE`, and vim in ex mode (`vim -es`, `-E`): a batch edit of the file operands. */
register(['ex', 'vim', 'vi', 'nvim'], (inv, j) => {
  const p = parseOptions(inv.args, VIM);
  if (inv.name !== 'ex' && !inv.args.some((w) => /^-[esE]*[eE][esE]*$/.test(literal(w) ?? ''))) return;
  for (const f of p.operands) if (!/^[+-]/.test(literal(f) ?? '')) j.write(f, inv, `${inv.name} edits`);
});

register(['sudoedit'], (inv, j) => {
  for (const f of parseOptions(inv.args, { short: 'AbBEHhiKkLlnPSVvg:p:r:t:U:u:C:D:R:T:', long: ['user=', 'group=', 'prompt=', 'chdir=', 'chroot=', 'host=', 'non-interactive', 'askpass'] }).operands) j.write(f, inv, 'sudoedit edits');
});

// ── text tools and converters ──

/** `[names, options, the options naming an output file, the output operand's index, options that run a program]`. */
const OUTPUTS: [string[], OptionSpec, string[], number | null, string[]][] = [
  [['sort', 'gsort'], { short: 'bcCdfghiMmnRrsuVzk:o:S:t:T:', long: ['output=', 'key=', 'field-separator=', 'buffer-size=', 'temporary-directory=', 'parallel=', 'files0-from=', 'random-source=', 'compress-program=', 'sort=', 'batch-size='] }, ['o', 'output'], null, ['compress-program']],
  [['uniq', 'guniq'], { short: 'cdDiuzf:s:w:', long: ['skip-fields=', 'skip-chars=', 'check-chars='] }, [], 1, []],
  [['shuf', 'gshuf'], { short: 'erzi:n:o:', long: ['input-range=', 'head-count=', 'output=', 'random-source='] }, ['o', 'output'], null, []],
  [['iconv'], { short: 'cslf:t:o:', long: ['from-code=', 'to-code=', 'output='] }, ['o', 'output'], null, []],
  [['base64', 'gbase64'], { short: 'dDiw:o:b:', long: ['output=', 'input=', 'wrap=', 'break='] }, ['o', 'output'], null, []],
  [['xxd'], { short: 'aCEeipruhvbdc:g:l:o:s:n:R:', long: ['cols=', 'len=', 'seek=', 'offset=', 'groupsize=', 'name=', 'autoskip', 'bits', 'capitalize', 'ebcdic', 'include', 'postscript', 'plain', 'ps', 'revert', 'uppercase', 'decimal', 'version'], singleDashLong: true }, [], 1, []],
  [['pandoc'], { short: 'sf:r:t:w:o:F:L:M:V:d:', long: ['output=', 'from=', 'read=', 'to=', 'write=', 'data-dir=', 'template=', 'filter=', 'lua-filter=', 'metadata=', 'metadata-file=', 'variable=', 'defaults=', 'resource-path=', 'extract-media='] }, ['o', 'output'], null, []],
  [['gpg', 'gpg2'], { short: 'acdeksvbqno:r:u:f:z:', long: ['output=', 'recipient=', 'local-user=', 'homedir=', 'default-key=', 'passphrase=', 'passphrase-file=', 'passphrase-fd=', 'pinentry-mode=', 'keyring=', 'trust-model=', 'status-fd=', 'command-fd=', 'logger-fd=', 'keyserver='] }, ['o', 'output'], null, []],
];

for (const [names, spec, outputs, operand, programs] of OUTPUTS) {
  register(names, (inv, j) => {
    const p = parseOptions(inv.args, spec);
    writeValues(optValues(p, ...outputs), inv, j, `${inv.name} writes`);
    const out = operand === null ? undefined : p.operands[operand];
    if (out && literal(out) !== '-') j.write(out, inv, `${inv.name} writes`);
    programOption(optValues(p, ...programs), inv, j);
    if (inv.name === 'pandoc') for (const dir of optValues(p, 'extract-media')) if (dir !== '\u0000') treeWrite(lit(dir), inv, j, 'pandoc extracts media into');
  });
}

/** split writes PREFIXaa, PREFIXab, …; `--filter` runs each piece through a shell command. */
register(['split', 'gsplit'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'dexa:b:C:l:n:t:', long: ['suffix-length=', 'additional-suffix=', 'bytes=', 'line-bytes=', 'lines=', 'number=', 'separator=', 'filter=', 'numeric-suffixes', 'hex-suffixes', 'elide-empty-files', 'unbuffered', 'verbose'] });
  const prefix = p.operands[1] ? literal(p.operands[1]) : null;
  if (prefix) j.write(lit(`${prefix}${hasOpt(p, 'd', 'numeric-suffixes') ? '00' : 'aa'}${optValue(p, 'additional-suffix') ?? ''}`), inv, 'split writes');
  programOption(optValues(p, 'filter'), inv, j);
});

/** openssl's `-out FILE` and `-keyout FILE`, in any subcommand. */
register(['openssl'], (inv, j) => {
  inv.args.forEach((w, k) => {
    const next = inv.args[k + 1];
    if (next && /^-(?:out|keyout)$/.test(literal(w) ?? '')) j.write(next, inv, 'openssl writes');
  });
});

// ── ssh-keygen ──

const SSH_KEYGEN: OptionSpec = { short: 'ABHKLQUXceghiklopquvyb:C:D:E:F:I:M:N:O:P:R:V:Y:Z:a:f:g:j:m:n:r:s:t:w:z:' };
/** Operations that only read or print. */
const KEYGEN_READS = ['l', 'y', 'F', 'B', 'e', 'i', 'D', 'Q', 'L', 'K'];

/**
 * ssh-keygen writes the key pair it makes (`-f FILE`, FILE.pub), a key whose passphrase or comment it
 * changes (`-p`, `-c`), known_hosts (`-R`, `-H`), host keys (`-A`) and certificates (`-s`).
 */
function sshKeygen(inv: Invocation, j: Judgement): void {
  const p: ParsedOptions = parseOptions(inv.args, SSH_KEYGEN);
  const file = optValue(p, 'f');
  const how = 'ssh-keygen writes';
  if (hasOpt(p, 'R', 'H')) return void j.write(lit(file ?? `${j.ctx.home}/.ssh/known_hosts`), inv, how);
  if (hasOpt(p, ...KEYGEN_READS) || (hasOpt(p, 'Y') && optValue(p, 'Y') !== 'sign')) return;
  if (hasOpt(p, 'A')) return void j.write(lit(`${file ?? ''}/etc/ssh/ssh_host_key`), inv, how);
  if (hasOpt(p, 's')) {
    for (const key of p.operands) if (literal(key)) j.write(lit(`${literal(key)!.replace(/\.pub$/, '')}-cert.pub`), inv, how);
    return;
  }
  if (hasOpt(p, 'Y')) return void p.operands.forEach((f) => literal(f) && j.write(lit(`${literal(f)}.sig`), inv, how));
  if (file === undefined || file === '\u0000') return;
  j.write(lit(file), inv, how);
  if (!hasOpt(p, 'p', 'c', 'k')) j.write(lit(`${file}.pub`), inv, how);
}
register(['ssh-keygen'], sshKeygen);

// ── the trash ──

/** Emptying the trash deletes for good what was only moved there. */
register(['trash-empty', 'gio', 'trash'], (inv, j) => {
  const words = inv.args.map((w) => literal(w) ?? '');
  const empties = inv.name === 'trash-empty' || (inv.name === 'gio' && words[0] === 'trash' && words.includes('--empty')) || (inv.name === 'trash' && words.includes('empty'));
  if (empties && !words.some((w) => /^--?(?:help|dry-run|n)$/.test(w))) j.add('dangerous', 'delete.trash', 'trash', `${[inv.name, ...words].join(' ')} deletes everything in the trash for good`);
});

// ── shell script tools ──

/** `shfmt -w` rewrites its files. */
register(['shfmt'], (inv, j) => {
  const p = parseOptions(inv.args, { short: 'wldsfmpkbi:', long: ['ln=', 'language-dialect=', 'indent=', 'write', 'list', 'diff', 'simplify', 'minify', 'find', 'posix', 'filename=', 'apply-ignore', 'binary-next-line', 'case-indent', 'space-redirects', 'keep-padding', 'func-next-line'], singleDashLong: true });
  if (hasOpt(p, 'w', 'write')) for (const f of p.operands) j.write(f, inv, 'shfmt -w rewrites');
});
