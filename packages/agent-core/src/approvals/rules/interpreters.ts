/**
 * Interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`, `php -r`, `Rscript -e`, …) and
 * interpreters reading their program from stdin. Code cannot be run to see what it does, so it is
 * judged for its effects: the strings it hands to a shell are judged as shell code, deletes and
 * writes of protected paths are found by the paths the code names, fork bombs and kill(-1) are
 * refused. Code from stdin asks whatever it holds.
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { display, globWord, lit, literal } from '../words.ts';
import { codeFromStdin, scriptFile } from './codeRunners.ts';
import { isMetadataHost, urlHost } from './network.ts';

export const INTERPRETERS = /^(?:ipython3?|gnuplot|octave(?:-cli)?|raku|perl6|rakudo|dc|swift|kotlinc|kotlin|bb|clojure|clj|zx|cmake|python[\d.]*|python[\d.]*-config|pypy[\d.]*|node|nodejs|deno|bun|perl[\d.]*|ruby[\d.]*|irb|php[\d.]*|rscript|r|lua[\d.]*|luajit|tclsh[\d.]*|wish|julia|jshell|groovy|scala|kotlin|elixir|erl|escript|guile|racket|sbcl|ts-node|tsx|swift)$/;

/** The option that introduces code, per interpreter (its value is the program). */
const CODE_OPTIONS: [RegExp, RegExp][] = [
  [/^(?:python|pypy)/, /^-\w*c/],
  [/^(?:node|nodejs|bun|ts-node|tsx)$/, /^(?:-e|--eval|-p|--print|-pe)$/],
  [/^perl/, /^-\w*[eE]$/],
  [/^(?:ruby|jruby)/, /^-\w*e$/],
  [/^php/, /^-\w*[rBRFE]$/],
  [/^(?:rscript|r)$/, /^(?:-e|--expr)$/],
  [/^(?:lua|luajit)/, /^-e$/],
  [/^(?:julia|elixir|escript|erl|guile|racket|sbcl|groovy|scala|kotlin)$/, /^(?:-e|--eval|-eval|-c|--expr)$/],
  [/^(?:ipython3?)$/, /^-c$/],
  [/^(?:gnuplot|raku|perl6|rakudo|dc|swift|bb|clojure|clj|kotlinc)$/, /^(?:-e|--eval|-x|-script)$/],
  [/^octave/, /^--eval$/],
];

/** Options that take a value which is not the program (so the next word is not the script). */
const VALUED = /^(?:-m|-W|-X|-M|-I|-r|--require|--import|--loader|--experimental-loader|-x|--input-type|--env-file|-C|-d|-f|-t|-l|-i\S*)$/;

export function judgeInterpreter(inv: Invocation, j: Judgement): void {
  if (inv.name === 'deno') return deno(inv, j);
  // `bun run https://…` runs code straight from the network.
  if (inv.name === 'bun' && inv.args.some((w) => /^https?:/.test(literal(w) ?? ''))) {
    j.add('dangerous', 'code.from-network', 'command', `bun runs code downloaded from ${inv.args.map((w) => literal(w) ?? '').find((t) => /^https?:/.test(t))}`);
  }
  const spec = CODE_OPTIONS.find(([name]) => name.test(inv.name))?.[1];
  const codes: string[] = [];
  let script: (typeof inv.args)[number] | null = null;
  let moduleRun = false;
  for (let i = 0; i < inv.args.length; i += 1) {
    const text = literal(inv.args[i]!) ?? '';
    const attached = /^(?:python|pypy)/.test(inv.name) ? /^-[bBdEhiIOqsSuvVx]*c(.*)$/s.exec(text) : null;
    if (attached || spec?.test(text)) {
      // `python -c"code"`: the code may be attached to the option.
      const value = attached?.[1] ? null : inv.args[i + 1];
      codes.push(attached?.[1] ? attached[1] : value ? (literal(value) ?? '\u0000') : '');
      i += 1;
      if (/^(?:python|pypy)/.test(inv.name)) break;
      continue;
    }
    if (text === '-m' && /^(?:python|pypy)/.test(inv.name)) {
      moduleRun = true;
      break;
    }
    if (text === '--') {
      script = inv.args[i + 1] ?? null;
      break;
    }
    if (text.startsWith('-') && text !== '-') {
      if (VALUED.test(text)) i += 1;
      continue;
    }
    script = inv.args[i]!;
    break;
  }
  const judge = (code: string) => judgeCode(code, inv, j);
  if (/^(?:perl|ruby)/.test(inv.name) && inv.args.some((w) => /^-[a-zA-Z]*i/.test(literal(w) ?? ''))) inPlaceFiles(inv, j);
  if (codes.length) {
    for (const code of codes) {
      if (code === '\u0000') j.add('dangerous', 'code.dynamic', 'command', `${inv.name} runs code decided at run time`);
      else judge(code);
    }
    return;
  }
  if (moduleRun) return;
  if (script && literal(script) !== '-') return scriptFile(script, inv, j, judge, inv.name);
  codeFromStdin(inv, j, judge, inv.name);
}

/** `perl -i -pe CODE FILE…`: the files after the program are edited in place. */
function inPlaceFiles(inv: Invocation, j: Judgement): void {
  let sawCode = false;
  for (let i = 0; i < inv.args.length; i += 1) {
    const text = literal(inv.args[i]!) ?? '';
    if (/^-[a-zA-Z]*[eE]$/.test(text)) {
      sawCode = true;
      i += 1;
    } else if (!text.startsWith('-')) {
      if (sawCode) j.write(inv.args[i]!, inv, `${inv.name} -i of`);
      sawCode = true;
    }
  }
}

function deno(inv: Invocation, j: Judgement): void {
  const [sub, ...rest] = inv.args.map((w) => literal(w) ?? display(w));
  if (sub === 'eval') return judgeCode(rest.filter((r) => !r.startsWith('-')).join(' '), inv, j);
  if ((sub === 'run' || sub === 'install' || sub === 'x') && rest.some((r) => /^https?:/.test(r))) {
    j.add('dangerous', 'code.from-network', 'command', `deno ${sub} runs code downloaded from ${rest.find((r) => /^https?:/.test(r))}`);
  }
  // `deno run -A npm:rimraf ~` runs the package's command like npx.
  const at = inv.args.findIndex((w) => /^npm:/.test(literal(w) ?? ''));
  if (sub === 'run' && at >= 0) j.command([lit((literal(inv.args[at]!) ?? '').slice(4).replace(/@[^/]*$/, '')), ...inv.args.slice(at + 1)], inv, 'deno run npm:');
}

const SPAWN = new RegExp([
  String.raw`\b(?:os\.(?:system|popen|exec\w*|spawn\w*|posix_spawn\w*)|subprocess|pty\.spawn|commands\.getoutput|child_process|execa|shelljs|zx|Deno\.(?:run|Command)|Bun\.(?:spawn\w*|\$)|IO\.popen|Open3|Kernel\.(?:system|exec|spawn)|passthru|shell_exec|proc_open|popen|pcntl_exec|Runtime\.getRuntime|ProcessBuilder|System\.cmd|os:cmd|open_port|run-program|sb-ext:run-program|system2|processx|callr)\b`,
  String.raw`\b(?:exec(?:Sync|File|FileSync)?|spawn(?:Sync)?|system|popen|run)\s*\(`,
  String.raw`\bsystem\s*(?:["'$]|q[qx]?\s*[({[/])|\bexec\s*["'(]|\bqx\s*[({[/|!]|%x[({[]|\bopen(?:\s*\(\s*|\s+)\w+\s*,\s*["']\s*[|]|\bopen(?:\s*\(\s*|\s+)\w+\s*,\s*["'][^"']*\|\s*["']`,
  String.raw`\brun\s*\(\s*` + '`' + String.raw`|\.execute\s*\(\s*\)|\bexec\s+[\w/]`,
  // aliases and indirection: `from os import system`, `os.__dict__['system']`, Perl `system qw(…)`/`system @c`, Ruby `%w(…)`
  String.raw`\bfrom\s+(?:os|subprocess|pty|commands)\s+import\b|__dict__\s*\[|\bsystem\s+(?:qw|@|split\b|join\b|map\b|decode_base64\b|\$)|\b(?:system|exec|spawn)\s*\(?\s*%w[({[]|\bshell\s+["']|execute_process\s*\(\s*COMMAND|babashka\.process|clojure\.java\.shell|\$` + '`' + String.raw`|ProcessBuilder|removeItem\s*\(|\bctypes\b`,
].join('|'));
/** Code built at run time and then run: eval of any kind, or code fetched from the network. */
const EVAL = /\b(?:eval|exec|compile|execfile|instance_eval|class_eval|module_eval|assert|create_function|Function|runInNewContext|runInThisContext|runInContext)\s*\(|\bnew\s+Function\b|\beval\s+[$"'`\w]|\b__import__\s*\(|\bgetattr\s*\(\s*(?:os|subprocess|__builtins__|builtins|shutil)|\.send\s*\(\s*:?["']?(?:system|exec|spawn|`)|\bbase64_decode\s*\(|\bunpack\s*\(\s*["']H|\bpack\s*\(\s*["']H/;
const FETCH = /\b(?:fetch|urlopen|urlretrieve|requests\.(?:get|post)|httpx\.get|LWP::Simple|LWP::UserAgent|HTTP::Tiny|getstore|open-uri|URI\.open|Net::HTTP|file_get_contents\s*\(\s*["']https?:|curl_exec|http\.get|https\.get|axios)\b/;
/** Backticks run a command in Perl, Ruby and PHP (in JavaScript they are template strings). */
const BACKTICK_LANGS = /^(?:perl|ruby|jruby|php|irb)/;
const DELETE = /\bunlink\s+(?:glob\b|<|[$@"'])|\brm\s*\(|\brm_rf!|\(delete-(?:directory|file)\b|\b(?:rmtree|remove_tree|os\.remove|os\.unlink|os\.rmdir|removedirs|rmSync|rmdirSync|unlinkSync|rm_rf|rm_r|rm_f|remove_dir|remove_dir_all|remove_entry\w*|remove_file|FileUtils\.(?:rm\w*|remove\w*)|File\.delete|Files\.delete\w*|Dir\.(?:rmdir|delete|unlink)|Deno\.remove\w*|fs\.(?:rm|rmdir|unlink)|rmrf|delete_directory|deleteRecursively|unlink_recursive|unlink\s*[("'$]|rmdir\s*[("'$]|rimraf|del\s*\(|shutil\.move)|\.(?:rm|rmdir|unlink)\s*\(/;
const WRITE = /\b(?:open\s*\([^)]*,\s*['"][^'"]*[wax+]|write(?:File|FileSync|_text|_bytes)|append(?:File|FileSync)|File\.(?:write|open)|file_put_contents|fopen\s*\([^)]*['"][wax]|IO\.write|Deno\.write\w*|Bun\.write|createWriteStream|copyFile\w*|rename\w*|symlink\w*|chmod\w*|chown\w*)/;
const HOME_REF = /\b(?:os\.homedir\(\)|homedir\(\)|expanduser\(\s*['"]~|Path\.home\(\)|process\.env\.HOME|process\.env\[['"]HOME['"]\]|ENV\[['"]HOME['"]\]|\$ENV\{HOME\}|getenv\(\s*['"]HOME['"]\)|Dir\.home|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(\s*['"]HOME['"]|os\.getenv\(\s*['"]HOME['"]\)|Sys\.getenv\(\s*['"]HOME['"]\)|path\.expand\(\s*['"]~|System\.user_home!?\(\)|System\.get_env\(\s*["']HOME["']\)|user-homedir-pathname|\$HOME\b|homedir\b)/;
/** A recursive delete whose argument is the home directory, however the language spells it. */
const DELETE_HOME = /(?:rmtree|remove_tree|rmSync|rm_rf!?|rm_r|remove_dir|remove_dir_all|remove_entry\w*|rimraf|rmdirSync|fs\.rm|\.rm|\brm|Deno\.remove|unlink|deleteRecursively|delete-directory)\s*\(\s*[^,;]{0,200}?(?:homedir\(\)|Path\.home\(\)|expanduser\(\s*['"]~\/?['"]\s*\)|process\.env\.HOME|process\.env\[['"]HOME['"]\]|Dir\.home|\$ENV\{HOME\}|ENV\[['"]HOME['"]\]|getenv\(\s*['"]HOME['"]\s*\)|os\.environ\[['"]HOME['"]\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|path\.expand\(\s*['"]~['"]\s*\)|System\.user_home!?\(\)|['"]~\/?['"])\s*\)?\s*[,)]/;
/** A loop that never ends (`while True:`, `until 0`, `for(;;)`, `loop {`), or `fork` as its own condition. */
const FOREVER = /\b(?:while|until)\s*\(?\s*(?:1|0|true|True|false|fork|pcntl_fork)\b|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*(?:do\b|\{)|\brepeat\b|iter\s*\(\s*int\s*,\s*1\s*\)|itertools\.count|\bwhile\s*:|fork\s*(?:\(\s*\))?\s*(?:while|until)\s*\(?\s*(?:1|0|true|fork)\b|\bforever\b/;
const FORK_BOMB = { test: (code: string) => FOREVER.test(code) && /fork\b|spawn\(\s*process\.argv|Process\.spawn/.test(code) };
/** An endless loop that starts a background process each time round (`while true do os.execute("lua &") end`). */
const SPAWN_LOOP = (code: string) => FOREVER.test(code) && /["'][^"']*&\s*["']/.test(code);
const KILL_ALL = /\b(?:os\.kill|process\.kill|Process\.kill|posix\.kill|kill|killpg)\s*\(\s*(?:-1\b|[^,()]{1,20},\s*-1\b)|\bkill\s+(?:-?\d+|['"][^'"]*['"]|\w+)\s*,\s*-1\b/;

const QUOTED = `(?:'(?:[^'\\\\]|\\\\.)*'|"(?:[^"\\\\]|\\\\.)*")`;
// Separators between the words of a command given as a list: `, `, `, [`, `, {args: [`, `, c(`, `(list `.
const LIST_SEPARATOR = String.raw`\s*(?:,\s*(?:\{\s*\w+\s*:\s*)?(?:c\(\s*|\[\s*)?|\(list\s+|(?=["']))`;
const LITERAL_LIST = new RegExp(`${QUOTED}(?:${LIST_SEPARATOR}${QUOTED})+`, 'g');

const HOME_REFS = new RegExp(HOME_REF.source.replace(/^\\b/, ''), 'g');
const JOINED = /(["'])((?:(?!\1)[^\\]|\\.)*)\1\s*(?:\+|\.(?![\w.])|\.\.|<>)\s*(["'])((?:(?!\3)[^\\]|\\.)*)\3/g;

/** The code with the home directory's spellings as a string literal and adjacent literals joined (`'a' + 'b'`). */
function foldStrings(code: string, home: string): string {
  // `expanduser('~/.bashrc')`, `path.expand("~/x")`: the whole call is a path under home.
  let out = code.replace(/\b(?:os\.path\.)?(?:expanduser|path\.expand)\(\s*(['"])~(\/[^'"]*)?\1\s*\)/g, (_m, _q, rest: string | undefined) => JSON.stringify(`${home}${rest ?? ''}`));
  out = out.replace(HOME_REFS, JSON.stringify(home));
  for (let pass = 0; pass < 8; pass += 1) {
    const next = out.replace(JOINED, (_m, _q1, a: string, _q2, b: string) => JSON.stringify(`${a}${b}`));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** String literals in code, including command quotes (`qx{…}`, `%x(…)`, backticks). */
function literals(code: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`|\bq[qxw]?\s*\{([^}]*)\}|\bq[qxw]?\s*\(([^)]*)\)|%[xw]\(([^)]*)\)|%[xw]\{([^}]*)\}|%[xw]\[([^\]]*)\]/g;
  for (const m of code.matchAll(re)) {
    const text = m.slice(1).find((g) => g !== undefined) ?? '';
    out.push(text.replace(/\\(['"`\\])/g, '$1'));
  }
  return out;
}

/** Pipes to or from a command, named in strings: Perl's `open(F, "|sh")`, `open($f, "-|", …)`, Ruby's `open("|cmd")`. */
const PIPE_OPEN = /\bopen(?:\s*\(\s*|\s+)(?:my\s+)?[$*]?\w+\s*,\s*["'](?:\s*\||[^"']*\|\s*["']|-\||\|-)|\b(?:open|IO\.popen|popen)\s*\(\s*["']\|/;
/** Modules whose import is itself a way to run commands (named in a string, so looked for in the raw code). */
const SPAWN_MODULE = /(?:require|import)\s*\(\s*['"](?:node:)?child_process['"]|from\s+['"](?:node:)?child_process['"]|\bimport\s+(?:subprocess|pty)\b|\bfrom\s+(?:subprocess|pty)\s+import\b/;

/** The code with what its string literals say blanked out, so prose in a string never reads as a call. */
const withoutStrings = (code: string) => code.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g, (m) => `${m[0]}${m[0]}`);

/** `os.environ['HERMES_HOME']`, `process.env.HERMES_HOME`, `$ENV{HERMES_HOME}`, `getenv("HERMES_HOME")`, …. */
const HERMES_HOME_REF = /\b(?:process\.env\.HERMES_HOME\b|(?:process\.env|os\.environ|ENV)\[\s*['"]HERMES_HOME['"]\s*\]|(?:os\.environ\.get|os\.getenv|getenv|Sys\.getenv|System\.get_env|Deno\.env\.get)\(\s*['"]HERMES_HOME['"]\s*\))|\$ENV\{HERMES_HOME\}|\$\{?HERMES_HOME\b\}?/g;

/**
 * Code that reads hermes's `.env` or another process's environment (`/proc/<ppid>/environ`, psutil's
 * `.environ()`), by the paths its strings spell once the homes are folded in: it asks like `cat` would.
 */
function codeSecretReads(code: string, inv: Invocation, j: Judgement): void {
  const folded = foldStrings(code.replace(HERMES_HOME_REF, JSON.stringify(j.ctx.hermesHome)), j.ctx.home);
  const strings = literals(folded);
  for (const text of strings) {
    if (/^~(?:\/|$)|^\//.test(text)) j.read(globWord(text.replace(/^~(?=\/|$)/, j.ctx.home)), inv, `${inv.name} code reads`);
  }
  // `'/proc/' + str(os.getppid()) + '/environ'`: pieces in separate strings.
  const procPid = strings.some((t) => /^\/proc\/(?!(?:self|thread-self)\/)/.test(t)) && strings.some((t) => /(?:^|\/)environ$/.test(t));
  if (procPid || /\.environ\(\s*\)/.test(code)) {
    j.add('dangerous', 'read.secrets', 'process environment', `${inv.name} code reads another process's environment (hermes's holds its API keys)`);
  }
}

/** Judges interpreter code for its effects. */
export function judgeCode(code: string, inv: Invocation, j: Judgement): void {
  const bare = withoutStrings(code);
  // A command runner named as a callable string (`call_user_func("system", …)`, `array_map("system", …)`).
  const callable = /\b(?:array_map|array_walk|call_user_func\w*|map|send|public_send|__send__|getattr\s*\(\s*\w+)\s*[(,]\s*:?['"]?(?:system|exec|passthru|shell_exec|popen|proc_open|spawn)\b/.test(code);
  const spawns = callable || SPAWN.test(bare) || SPAWN_MODULE.test(code) || PIPE_OPEN.test(code) || (BACKTICK_LANGS.test(inv.name) && /`[^`]+`/.test(code));
  // IPython's and dc's `!CMD` run a shell command; cmake's `execute_process(COMMAND …)` runs one.
  if (/^(?:ipython3?|dc)$/.test(inv.name)) for (const m of code.matchAll(/(?:^|[\n;])\s*!(.+)$/gm)) j.code(m[1]!, inv);
  for (const m of code.matchAll(/execute_process\s*\(\s*COMMAND\s+([^)]*)\)/g)) j.code(m[1]!.replace(/\b(?:WORKING_DIRECTORY|OUTPUT_VARIABLE|RESULT_VARIABLE)\b.*$/s, ''), inv, false);
  // Tcl and expect: `exec CMD ARGS` runs CMD (unquoted words).
  if (/^(?:tclsh|wish|expect)/.test(inv.name)) for (const m of code.matchAll(/(?:^|[;\n[])\s*exec\s+([^;\n\]]+)/g)) j.code(m[1]!.replace(/^-\S+\s+/, ''), inv, false);
  // Ruby `send(:system, …)`, PHP `$f(…)` after building a name: calls decided at run time.
  if (/\b(?:public_)?send\s*\(\s*:?["']?(?:system|exec|spawn|eval|`)|^php/.test(bare) || (/^php/.test(inv.name) && /\$\w+\s*\(/.test(bare))) {
    j.add('dangerous', 'code.interpreter', 'command', `${inv.name} code that calls a function chosen at run time`);
  }
  // A delete named as a callable string (`array_map("unlink", …)`, `map(os.remove, …)`).
  const deletes = DELETE.test(bare) || /\b(?:array_map|array_walk|map|each|forEach|call_user_func\w*)\s*\(\s*['"]?(?:unlink|rmdir|os\.remove|os\.unlink|shutil\.rmtree)\b/.test(code);
  const writes = WRITE.test(code) || /\bopen(?:\s*\(\s*|\s+)\w+\s*,\s*["']\s*\+?>/.test(code);
  if (FORK_BOMB.test(bare) || (SPAWN_LOOP(code) && (SPAWN.test(bare) || PIPE_OPEN.test(code)))) j.add('hardline', 'fork-bomb', 'machine', `${inv.name} code that forks without end`);
  if (KILL_ALL.test(bare)) j.add('hardline', 'kill.everything', 'all processes', `${inv.name} code that signals every process (kill -1)`);
  if (spawns) j.add('dangerous', 'code.interpreter', 'command', `${inv.name} code that runs commands`);
  if (EVAL.test(bare)) j.add('dangerous', 'code.interpreter', 'command', `${inv.name} code that runs code built at run time (eval)`);
  if (FETCH.test(bare) && (EVAL.test(bare) || /\beval\b|\bexec\b|\bFunction\b/.test(bare) || spawns)) j.add('dangerous', 'code.from-network', 'command', `${inv.name} code that runs what it downloads`);
  if (deletes) j.add('dangerous', 'delete.interpreter', 'path', `${inv.name} code that deletes files`);
  // A URL of the cloud metadata endpoint in any string: the code fetches instance credentials.
  for (const text of literals(code)) {
    if (/^[a-z][\w+.-]*:\/\//i.test(text) && isMetadataHost(urlHost(text))) j.add('dangerous', 'network.metadata', 'metadata endpoint', `${inv.name} code reaches ${text} (cloud instance credentials)`);
  }
  codeSecretReads(code, inv, j);
  if (!spawns && !deletes && !writes) return;
  // `'rm -rf ' + os.environ['HOME']`: the home spelled in code becomes a string, and strings joined.
  const folded = foldStrings(code, j.ctx.home);
  const strings = literals(folded);
  if (spawns) for (const text of strings) if (/\s/.test(text) || /^[\w./-]+$/.test(text)) j.code(text, inv, false);
  // `system("rm", "-rf", "/")`, `subprocess.run(["rm", "-rf", home])`: a command given as a list.
  if (spawns) for (const list of folded.matchAll(LITERAL_LIST)) j.code(literals(list[0]).join(' '), inv, false);
  const homeRelative = HOME_REF.test(code);
  for (const text of strings) {
    const underHome = homeRelative && /^\/?\.\w/.test(text) ? `${j.ctx.home}/${text.replace(/^\//, '')}` : null;
    if (underHome) {
      if (deletes) j.remove(lit(underHome), inv, false, `${inv.name} code deletes`);
      j.write(lit(underHome), inv, `${inv.name} code writes`);
    }
    // Perl's two-argument open: `open(F, ">>/etc/x")`; a home spelled inside the string.
    const bare = text.replace(/^\s*(?:\+?[<>]{1,2}|\|)\s*/, '').replace(/^(?:\$ENV\{HOME\}|#\{ENV\[['"]HOME['"]\]\}|\$\{?HOME\}?|\{os\.homedir\(\)\}|\$\{os\.homedir\(\)\})(?=\/|$)/, j.ctx.home);
    const candidate = bare.startsWith('/') || bare.startsWith('~') ? bare : null;
    if (candidate === null && !(homeRelative && text === '') && !(deletes && (text === '~' || text === '/'))) continue;
    const word = candidate === null ? lit(text || j.ctx.home) : globWord(candidate.replace(/^~(?=\/|$)/, j.ctx.home));
    const everything = /\/\.?\*$/.test(word.source);
    if (deletes) j.remove(word, inv, everything || /rmtree|remove_tree|rm_rf|rmSync|recursive|remove_dir_all|rm_r|rimraf|Remove-Item|delete-directory/.test(code), `${inv.name} code deletes`);
    if (writes || deletes) j.write(word, inv, `${inv.name} code writes`);
  }
  if (deletes && DELETE_HOME.test(code)) j.remove(lit(j.ctx.home), inv, true, `${inv.name} code deletes`);
}
