/**
 * Programs that run code: shells (`-c`, a script, or stdin), eval, source, trap, at, ssh, and the
 * editors and tools with a way to run a command (`vim -c '!…'`, `expect spawn`, `osascript do shell
 * script`). Code that comes from data — a pipe, a heredoc, a here-string, `/dev/stdin`, a process
 * substitution, or a file written earlier in the line — always asks, and its text is judged when it
 * can be known (`echo 'rm -rf ~' | sh` is refused).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { parseOptions, optValues } from '../options.ts';
import { register } from '../programRules.ts';
import { display, lit, literal, type WordValue } from '../words.ts';
import { judgeCode, judgeInterpreter, INTERPRETERS } from './interpreters.ts';
import { sshOption } from './writers.ts';

const SHELLS = /^(?:sh|bash|rbash|zsh|rzsh|dash|ksh|ksh93|mksh|pdksh|oksh|ash|yash|posh|fish|csh|tcsh|busybox-sh|elvish|nu|xonsh|ion|osh|ysh)$/;

const DOWNLOADERS = /^(?:curl|wget|fetch|aria2c|http|https|xh|lynx|links|w3m|nc|ncat|socat|ftp|tftp|scp|rsync|gh|aws|gsutil|rclone)$/;
const DECODERS = /^(?:base64|base32|basenc|xxd|uudecode|openssl|gunzip|zcat|gzip|bzcat|xzcat|zstdcat|rev|tr|perl|python[\d.]*|node|ruby|php|printf|echo|od|dd)$/;

/** Names of the commands whose output feeds this one's stdin, nearest first. */
const upstreamNames = (inv: Invocation) => (inv.fact.stdin?.upstream ?? []).map((f) => (literal(f.words[0] ?? { pieces: [], source: '', quoted: false }) ?? '').split('/').pop()!.toLowerCase());

/** Code read from stdin (or a file that is stdin): always asks; its text is judged when known. */
export function codeFromStdin(inv: Invocation, j: Judgement, judgeText: (text: string) => void, what: string): void {
  const stdin = inv.fact.stdin;
  const file = stdin?.kind === 'file' ? (literal(stdin.file!) ?? '') : '';
  if (/^\/dev\/(?:tcp|udp)\//.test(file)) {
    j.add('dangerous', 'code.from-network', 'command', `${what} runs code read from the network (${file})`);
    return;
  }
  const stdinItself = /^\/dev\/(?:stdin|fd\/\d+)$|^\/proc\/self\/fd\//.test(file);
  if (!stdin || (stdin.kind === 'file' && !stdinItself)) return;
  const sources = upstreamNames(inv);
  const fromNetwork = sources.some((n) => DOWNLOADERS.test(n));
  const decoded = sources.some((n) => DECODERS.test(n));
  const origin = stdin.kind === 'pipe' ? `the output of ${sources.join(' ← ') || 'a pipe'}` : stdin.kind === 'procsub' ? 'a process substitution' : `a ${stdin.kind}`;
  j.add('dangerous', fromNetwork ? 'code.from-network' : 'code.from-data', 'command', `${what} runs code from ${origin}${fromNetwork ? ' (downloaded)' : decoded ? ' (decoded or generated)' : ''}`);
  if (stdin.text !== null) judgeText(stdin.text);
}

const fileIsData = (word: WordValue) => {
  const text = literal(word);
  if (text === null) return /^<\(/.test(display(word)) ? 'a process substitution' : null;
  if (/^\/dev\/(?:tcp|udp)\//.test(text)) return 'a network connection';
  if (text === '-' || text === '/dev/stdin' || /^\/dev\/fd\/\d+$/.test(text) || /^\/proc\/self\/fd\/\d+$/.test(text)) return text;
  return null;
};

/** A script file: stdin or a pipe-like file is code from data; a file written in this line is judged. */
export function scriptFile(word: WordValue, inv: Invocation, j: Judgement, judgeText: (text: string) => void, what: string): void {
  const data = fileIsData(word);
  if (data) {
    if (data.startsWith('/dev/') || data === '-' || data.startsWith('/proc/')) codeFromStdin(inv, j, judgeText, `${what} ${data}`);
    if (data === 'a network connection') j.add('dangerous', 'code.from-network', 'command', `${what} runs code read from the network (${literal(word)})`);
    else if (!inv.fact.stdin || data === 'a process substitution') j.add('dangerous', 'code.from-data', 'command', `${what} runs code from ${data}`);
    const output = word.pieces.find((p) => p.kind === 'unknown' && p.output !== undefined);
    if (output?.kind === 'unknown' && output.output) judgeText(output.output);
    return;
  }
  const text = literal(word);
  if (text === null) {
    j.add('dangerous', 'code.dynamic', 'command', `${what} runs a script named at run time (${display(word)})`);
    return;
  }
  const p = j.path(word, inv);
  const before = p ? j.writtenBefore(p.display) : null;
  if (p && before) {
    j.add('dangerous', 'code.from-data', 'command', `${what} runs ${p.display}, written or fetched earlier in this command`);
    if (before.content) judgeText(before.content);
  }
}

function shell(inv: Invocation, j: Judgement): void {
  const args = inv.args;
  let command = false;
  let readsStdin = false;
  let i = 0;
  for (; i < args.length; i += 1) {
    const text = literal(args[i]!) ?? '';
    if (text === '--' || text === '-') {
      if (text === '-') readsStdin = true;
      i += 1;
      break;
    }
    if (!/^[-+]/.test(text) || text.length < 2) break;
    if (text.startsWith('--')) {
      // The rc file runs first: it is a script like any other.
      if (['--rcfile', '--init-file'].includes(text) && args[i + 1]) scriptFile(args[i + 1]!, inv, j, (t) => j.code(t, inv), `${inv.name} ${text}`);
      if (['--rcfile', '--init-file'].includes(text)) i += 1;
      if (text === '--command') command = true;
      continue;
    }
    const letters = text.slice(1);
    if (letters.includes('c')) command = true;
    if (letters.includes('s')) readsStdin = true;
    if (/[oO]/.test(letters)) i += 1;
  }
  const rest = args.slice(i);
  const code = (text: string) => j.code(text, inv);
  if (command) {
    const source = rest[0];
    if (!source) {
      // `xargs sh -c`: the code is the first word of the input.
      if (inv.moreArgs) j.add('dangerous', 'code.from-data', 'command', `${inv.name} -c runs code taken from its input`);
      return;
    }
    const text = literal(source);
    if (text === null) j.add('dangerous', 'code.dynamic', 'command', `${inv.name} -c runs code decided at run time (${display(source)})`);
    // `sh -c 'rm -rf "$1"' _ ARG`: the words after the code are $0, $1, …
    else {
      const params = rest.slice(1).map(literal);
      const all = params.slice(1).every((p) => p !== null) ? params.slice(1).join(' ') : null;
      j.code(text, inv, true, new Map([...params.map((p, k): [string, string | null] => [String(k), p]), ['@', all], ['*', all]]));
    }
    if (inv.moreArgs && /\$[1-9@*]|\$\{[1-9@*]/.test(text ?? '')) j.add('dangerous', 'code.from-data', 'command', `${inv.name} -c gets its arguments from its input`);
    return;
  }
  if (rest[0] && !readsStdin) return scriptFile(rest[0], inv, j, code, inv.name);
  codeFromStdin(inv, j, code, inv.name);
}
register(SHELLS, shell);

register(['eval'], (inv, j) => {
  const text = inv.args.map((w) => literal(w) ?? display(w)).join(' ');
  j.add('dangerous', 'code.eval', 'command', `eval runs ${inv.args.every((w) => literal(w) !== null) ? 'a string as code' : 'code built at run time'}`);
  if (inv.args.every((w) => literal(w) !== null)) j.code(text, inv);
});

register(['source', '.'], (inv, j) => {
  const file = inv.args[0];
  if (file) scriptFile(file, inv, j, (text) => j.code(text, inv), inv.name);
});

register(['trap'], (inv, j) => {
  const args = literal(inv.args[0] ?? lit('')) === '--' ? inv.args.slice(1) : inv.args;
  const first = args[0] && literal(args[0]);
  if (!first || ['-p', '-l', '-'].includes(first)) return;
  j.code(first, inv);
});

register(['alias'], (inv, j) => {
  for (const word of inv.args) {
    const text = literal(word);
    const eq = text?.indexOf('=') ?? -1;
    if (text && eq > 0) j.code(text.slice(eq + 1), inv);
  }
});

register(['at', 'batch'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'mMlrdbvcq:f:t:' });
  if (parsed.opts.has('l') || parsed.opts.has('r') || parsed.opts.has('d') || parsed.opts.has('c')) return;
  j.add('dangerous', 'code.scheduled', 'command', `${inv.name} schedules commands to run later`);
  codeFromStdin(inv, j, (text) => j.code(text, inv), inv.name);
});

const SSH_SHORT = '46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:p:Q:R:S:W:w:';
register(['ssh'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: SSH_SHORT, posix: true });
  for (const option of optValues(parsed, 'o')) sshOption(option, inv, j);
  const remote = parsed.operands.slice(literal(parsed.operands[1] ?? lit('')) === '--' ? 2 : 1);
  // The remote command runs on another machine: judged as if here, since it is the user's machine too.
  if (remote.length) j.code(remote.map((w) => literal(w) ?? display(w)).join(' '), { ...inv, cwd: null });
  else if (inv.fact.stdin && inv.fact.stdin.kind !== 'file' && parsed.operands.length) codeFromStdin(inv, j, (text) => j.code(text, inv), 'ssh');
});

register(INTERPRETERS, judgeInterpreter);

/** Editors and tools that run a shell command from an option. */
register(['vim', 'vi', 'nvim', 'ex', 'view', 'gvim', 'rvim', 'vimdiff'], (inv, j) => {
  const commands: string[] = [];
  inv.args.forEach((w, k) => {
    const text = literal(w) ?? '';
    if (['-c', '--cmd', '-S'].includes(text) && inv.args[k + 1]) commands.push(literal(inv.args[k + 1]!) ?? '');
    else if (text.startsWith('+') && text.length > 1) commands.push(text.slice(1));
  });
  for (const command of commands) {
    // `:py3 …`, `:lua …`, `:perl …`, `:ruby …`: the editor's embedded interpreters.
    // (Leading blanks trimmed first: `^\s*:?\s*` on a long run of blanks backtracks.)
    const line = command.trimStart();
    const embedded = /^:?\s*(py3?|python3?|pyx|lua|perl|ruby|mzscheme)\s+(.*)$/s.exec(line);
    if (embedded) judgeCode(embedded[2]!, { ...inv, name: embedded[1]!.startsWith('py') ? 'python3' : embedded[1]! }, j);
    const bang = /^:?\s*(?:\d+(?:,\d*)?\s*)?(?:!|r\s*!|w\s*!|silent!?\s*!|call\s+system\(|exe(?:cute)?\s+['"]!)(.*)$/s.exec(line);
    if (bang) {
      j.add('dangerous', 'code.option', 'command', `${inv.name} runs the shell command \`${bang[1]}\``);
      j.code(bang[1]!.replace(/^['"(]|['")]+$/g, ''), inv, false);
    }
  }
  if (inv.args.some((w) => /^-\w*s$|^-es$|^-Es$/.test(literal(w) ?? '')) && inv.fact.stdin && inv.fact.stdin.kind !== 'file') {
    codeFromStdin(inv, j, (text) => j.code(text.replace(/^\s*:?!/gm, ''), inv, false), inv.name);
  }
});

register(['expect'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'dDinNbfc:' });
  const scripts = optValues(parsed, 'c');
  const judgeExpect = (code: string) => {
    j.add('dangerous', 'code.interpreter', 'command', 'expect runs programs it spawns');
    for (const m of code.matchAll(/(?:^|[;\n{]\s*)(?:spawn|exec|system)\s+([^;\n}]+)/g)) j.code(m[1]!.trim(), inv, false);
  };
  for (const code of scripts) judgeExpect(code);
  if (!scripts.length && !parsed.operands.length) codeFromStdin(inv, j, judgeExpect, 'expect');
});

const PWSH_ALIASES: [RegExp, string][] = [
  [/\b(?:Remove-Item|ri|rd|rmdir|del|erase)\b/gi, 'rm'],
  [/-Recurse\b/gi, '-r'],
  [/-Force\b/gi, '-f'],
  [/-(?:Path|LiteralPath)\b/gi, ''],
  [/\$(?:HOME|env:USERPROFILE|env:HOME)\b/gi, '~'],
  [/\b(?:Stop-Computer|Restart-Computer)\b/gi, 'shutdown'],
  [/\b(?:Format-Volume|Clear-Disk|Initialize-Disk)\b/gi, 'mkfs'],
];

register(['pwsh', 'powershell', 'powershell.exe', 'pwsh.exe'], (inv, j) => {
  const texts = inv.args.map((w) => literal(w) ?? display(w));
  const k = texts.findIndex((t) => /^-(?:c|command|e|ec|encodedcommand)$/i.test(t));
  let code = k >= 0 ? texts.slice(k + 1).join(' ') : null;
  if (k >= 0 && /^-(?:e|ec|encodedcommand)$/i.test(texts[k]!)) code = Buffer.from(texts[k + 1] ?? '', 'base64').toString('utf16le');
  if (code === null) return codeFromStdin(inv, j, (text) => judgePwsh(text, inv, j), inv.name);
  judgePwsh(code, inv, j);
});

function judgePwsh(code: string, inv: Invocation, j: Judgement): void {
  if (/\b(?:Invoke-Expression|iex|Start-Process|Invoke-WebRequest|iwr|Invoke-RestMethod|irm|Set-Content|Add-Content|Out-File|Remove-Item|New-Item|Copy-Item|Move-Item)\b/i.test(code)) {
    j.add('dangerous', 'code.interpreter', 'command', 'PowerShell code that changes files or runs programs');
  }
  let translated = code;
  for (const [pattern, replacement] of PWSH_ALIASES) translated = translated.replace(pattern, replacement);
  j.code(translated, inv, false);
}

register(['osascript'], (inv, j) => {
  const code = optValues(parseOptions(inv.args, { short: 'se:l:' }), 'e').join('\n');
  // `«event aevtrsdn»` (shut down) and `«event aevtrrst»` (restart) are the raw Apple events.
  if ((/\b(?:shut\s*down|restart|log\s*out)\b/i.test(code) && /System Events|Finder|loginwindow/i.test(code)) || /aevt(?:rsdn|rrst|shut|rlgo)/i.test(code)) {
    j.add('hardline', 'power.off', 'machine', 'osascript asks macOS to shut down or restart');
  }
  for (const m of code.matchAll(/do shell script\s+"((?:[^"\\]|\\.)*)"/gi)) {
    j.add('dangerous', 'code.interpreter', 'command', 'osascript runs a shell script');
    j.code(m[1]!.replace(/\\"/g, '"'), inv);
  }
});

/** awk programs: `system()`, `| "cmd"` pipes, and `print > "file"` writes; gawk `-i inplace` edits files. */
register(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk'], (inv, j) => {
  const parsed = parseOptions(inv.args, { short: 'F:v:f:i:l:e:E:bcCdDghLMnNoOpPrsStVW:', long: ['include=', 'file=', 'source=', 'assign=', 'field-separator=', 'exec=', 'load=', 'sandbox'] });
  const programFiles = optValues(parsed, 'f', 'file');
  // `awk -f /dev/stdin`, `awk -f <(…)`, `awk -f prog.awk` written earlier: the program is data.
  if (programFiles.some((f) => /^(?:-|\/dev\/stdin|\/dev\/fd\/\d+)$/.test(f))) codeFromStdin(inv, j, (text) => judgeAwk(text, inv, j), inv.name);
  const fileWords = inv.args.filter((w, k) => ['-f', '--file'].includes(literal(inv.args[k - 1] ?? lit('')) ?? ''));
  for (const file of fileWords) if (!/^(?:-|\/dev\/)/.test(literal(file) ?? '')) scriptFile(file, inv, j, (text) => judgeAwk(text, inv, j), `${inv.name} -f`);
  const assigned = new Map(optValues(parsed, 'v', 'assign').map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as [string, string]));
  const program = optValues(parsed, 'e', 'source')[0] ?? (programFiles.length ? null : parsed.operands[0] && literal(parsed.operands[0]));
  const files = optValues(parsed, 'f', 'file').length || optValues(parsed, 'e', 'source').length ? parsed.operands : parsed.operands.slice(1);
  if (optValues(parsed, 'i', 'include').includes('inplace')) for (const f of files) j.write(f, inv, `${inv.name} -i inplace of`);
  if (program) judgeAwk(program, inv, j, assigned);
});

/** An awk program: `system()`, `| "cmd"` and `"cmd" | getline` run commands; `> "file"` writes. */
function judgeAwk(program: string, inv: Invocation, j: Judgement, assigned = new Map<string, string>()): void {
  for (const m of program.matchAll(/\bsystem\s*\(\s*"((?:[^"\\]|\\.)*)"|\|\s*"((?:[^"\\]|\\.)*)"|"((?:[^"\\]|\\.)*)"\s*\|\s*getline/g)) {
    // A literal command is judged as what it is (`print | "sort"` is fine, `system("rm -rf ~")` is not).
    j.code(m[1] ?? m[2] ?? m[3] ?? '', inv, false);
  }
  // `print "CMD" | "sh"`: what is printed into a shell is code.
  if (/\|\s*"(?:\/bin\/)?(?:ba|z|da|k)?sh"/.test(program)) for (const m of program.matchAll(/print\s+"((?:[^"\\]|\\.)*)"/g)) j.code(m[1]!, inv);
  // `system(c)` with `c="…"` or `-v c=…`; `system($0)` runs each input line.
  for (const m of program.matchAll(/(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"/g)) assigned.set(m[1]!, m[2]!);
  for (const m of program.matchAll(/\bsystem\s*\(\s*(\$0|\w+)\s*\)/g)) {
    const value = m[1] === '$0' ? inv.fact.stdin?.text : assigned.get(m[1]!);
    if (value) j.code(value, inv);
  }
  if (/\bsystem\s*\(\s*[^"\s)]|\|\s*[^"\s|]/.test(program)) j.add('dangerous', 'code.interpreter', 'command', `the ${inv.name} program runs a command built at run time`);
  for (const m of program.matchAll(/>>?\s*"([^"]+)"/g)) j.write(lit(m[1]!), inv, `${inv.name} writes`);
}

/** Programs that hand their arguments to a shell but are not wrappers hermes can unwrap. */
register(['dtach', 'abduco', 'nohup-ng', 'capsh', 'systemd-nspawn', 'lxc-attach', 'lxc-execute', 'schroot', 'proot', 'faketime', 'ddev', 'devcontainer'], (inv, j) => {
  const words = inv.args.map((w) => literal(w) ?? display(w));
  j.add('dangerous', 'command.unknown-runner', inv.name, `${inv.name} runs another command hermes does not unwrap (${words.join(' ')})`);
  for (const word of words) if (/\s/.test(word)) j.code(word, inv, false);
  j.code(words.join(' '), inv, false);
});

/** `mapfile -C CMD`, `readarray -C CMD`: the callback runs as code every `-c` lines. */
register(['mapfile', 'readarray'], (inv, j) => {
  inv.args.forEach((w, k) => {
    const text = literal(w) ?? '';
    const code = text === '-C' ? literal(inv.args[k + 1] ?? lit('')) : /^-C(.+)$/s.exec(text)?.[1];
    if (code) j.code(code, inv);
  });
});

/** Builtins that evaluate an array subscript or arithmetic in their arguments: `$(…)` there runs. */
register(['let', 'printf', 'read', 'unset', 'test', '[', '[[', 'mapfile', 'readarray', 'wait', 'getopts', 'declare', 'typeset', 'local'], (inv, j) => {
  for (const word of inv.args) {
    const text = literal(word);
    const inner = text && /\[[^\]]*(?:\$\(([^)]*)\)|`([^`]*)`)/.exec(text);
    if (inner) j.code(inner[1] ?? inner[2] ?? '', inv);
  }
});

/** Debuggers, editors and pagers with an option that runs a shell command. */
const SHELL_OPTIONS: Record<string, { options: string[]; command: (value: string) => string | null }> = {
  gdb: { options: ['-ex', '--ex', '-eval-command', '--eval-command', '-iex'], command: (v) => /^\s*(?:shell|!)\s*(.*)$/s.exec(v)?.[1] ?? null },
  lldb: { options: ['-o', '--one-line', '-O', '--one-line-before-file', '-k'], command: (v) => /^\s*(?:platform\s+shell|shell|!)\s*(.*)$/s.exec(v)?.[1] ?? null },
  man: { options: ['-P', '--pager', '-H', '--html'], command: (v) => v },
  emacs: {
    options: ['--eval', '-eval', '-f', '--funcall'],
    command: (v) =>
      /\((?:shell-command|call-process|start-process|async-shell-command)\s+"((?:[^"\\]|\\.)*)"/.exec(v)?.[1] ??
      // `(delete-directory "DIR" t)` is `rm -r DIR`.
      (/\(delete-directory\s+"((?:[^"\\]|\\.)*)"\s+t\b/.exec(v) ? `rm -r ${/\(delete-directory\s+"((?:[^"\\]|\\.)*)"/.exec(v)![1]}` : null) ??
      (/\b(?:shell-command|call-process|start-process|delete-directory|delete-file)\b/.test(v) ? '' : null),
  },
  nvim: { options: ['-c', '--cmd', '+'], command: (v) => /\bos\.execute\s*\(?\s*["']([^"']*)["']|vim\.fn\.system\s*\(?\s*["']([^"']*)["']|io\.popen\s*\(\s*["']([^"']*)["']/.exec(v)?.slice(1).find(Boolean) ?? null },
  // `$(shell CMD)` and a rule's recipe (`target: ; CMD`, or a tab-indented line) run commands.
  make: { options: ['--eval', '-E'], command: (v) => /\$\(shell\s+([^)]*)\)/.exec(v)?.[1] ?? /^[^:=\n]+:[^;\n=]*;(.+)$/m.exec(v)?.[1] ?? /^\t(.+)$/m.exec(v)?.[1] ?? null },
};

register(Object.keys(SHELL_OPTIONS), (inv, j) => {
  const spec = SHELL_OPTIONS[inv.name]!;
  inv.args.forEach((word, k) => {
    const text = literal(word) ?? '';
    const option = spec.options.find((o) => text === o || (o.startsWith('--') && text.startsWith(`${o}=`)) || (o === '+' && text.startsWith('+')));
    if (!option) return;
    const value = text === option ? literal(inv.args[k + 1] ?? lit('')) : text.slice(option.length + (option === '+' ? 0 : 1));
    const command = value === null ? null : spec.command(value);
    if (command === null) return;
    j.add('dangerous', 'code.option', 'command', `${inv.name} ${option} runs ${command ? `\`${command}\`` : 'code'}`);
    if (command) j.code(command, inv, false);
  });
});

/** `less +!cmd`, `LESSOPEN`: less runs shell commands from its `+` option. */
register(['less', 'more'], (inv, j) => {
  for (const word of inv.args) {
    const m = /^\+[^!]*!(.*)$/s.exec(literal(word) ?? '');
    if (m) {
      j.add('dangerous', 'code.option', 'command', `${inv.name} +! runs \`${m[1]}\``);
      j.code(m[1]!, inv, false);
    }
  }
});

/** `vagrant ssh -c CMD`: the command runs on the box. */
register(['vagrant'], (inv, j) => {
  const at = inv.args.findIndex((w) => ['-c', '--command'].includes(literal(w) ?? ''));
  if (literal(inv.args[0] ?? lit('')) === 'ssh' && at >= 0 && inv.args[at + 1]) j.code(literal(inv.args[at + 1]!) ?? '', { ...inv, cwd: null });
});

/** `npm pkg set scripts.X='…'`, `npm set-script X '…'`: a script that later `npm run` runs. */
register(['npm', 'pnpm', 'yarn'], (inv, j) => {
  const texts = inv.args.map((w) => literal(w) ?? '');
  if (texts[0] === 'pkg' && texts[1] === 'set') for (const t of texts.slice(2)) if (/^scripts\./.test(t) && t.includes('=')) j.code(t.slice(t.indexOf('=') + 1), inv);
  if (texts[0] === 'set-script' && texts[2]) j.code(texts[2], inv);
  const shell = texts.find((t) => /^--script-shell=/.test(t));
  if (shell) j.code(shell.slice('--script-shell='.length), inv);
});
