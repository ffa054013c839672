/**
 * `NAME=value` in front of a command (or given to `env`/`sudo`): some variables are programs the
 * command will run (`GIT_SSH_COMMAND`, `PAGER`, `EDITOR`, …) or code every process loads
 * (`LD_PRELOAD`, `BASH_ENV`, …). Their values are judged like code the command runs, unless they name
 * a well-known pager, editor or helper (see `harmlessProgram`).
 */
import type { Invocation, Judgement } from '../judgement.ts';
import { codeIn } from '../syntaxProblems.ts';
import { display, lit, literal, type WordValue } from '../words.ts';

/** Variables whose value is a command line a program runs. */
const COMMAND_VARIABLES = /^(?:GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_ASKPASS|GIT_PROXY_COMMAND|PAGER|MANPAGER|SYSTEMD_PAGER|EDITOR|VISUAL|SUDO_EDITOR|SUDO_ASKPASS|SSH_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|PROMPT_COMMAND|RSYNC_RSH|CVS_RSH|npm_config_script_shell|NPM_CONFIG_SCRIPT_SHELL|npm_config_shell|FCEDIT)$/;
/** Variables that make every process (or every shell, interpreter) load code. */
const LOADER_VARIABLES = /^(?:LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|BASH_ENV|ENV|PERL5OPT|PERL5DB|RUBYOPT|PYTHONSTARTUP|PYTHONINSPECT|GIT_CONFIG_PARAMETERS|GIT_EXEC_PATH|GIT_TEMPLATE_DIR)$/;
/** Variables whose value is a program line, but never one of the well-known programs below. */
const NEVER_HARMLESS = /^(?:LESSOPEN|LESSCLOSE|PROMPT_COMMAND)$/;

// ── well-known pagers, editors and helpers ──

/** Pagers, diff highlighters, editors, browsers, ssh and askpass helpers: what people set as PAGER, core.editor, … */
const PROGRAMS = new Set([
  'cat', 'less', 'more', 'most', 'bat', 'batcat', 'delta', 'diff-so-fancy', 'diff-highlight', 'ydiff', 'diffr', 'riff', 'moar', 'moor', 'ov',
  'vi', 'vim', 'nvim', 'gvim', 'mvim', 'nano', 'pico', 'emacs', 'emacsclient', 'code', 'code-insiders', 'codium', 'cursor', 'subl', 'mate', 'micro', 'hx', 'helix', 'kak', 'gedit', 'kate', 'zed', 'atom', 'joe', 'ne', 'mg',
  'firefox', 'chromium', 'chromium-browser', 'google-chrome', 'xdg-open', 'wslview', 'ssh', 'ssh-askpass', 'ksshaskpass', 'true',
]);
/** git's credential helpers, named as git names them (`store` runs `git credential-store`). */
const CREDENTIAL_HELPERS = /^(?:git-credential-)?(?:store|cache|osxkeychain|manager|manager-core|libsecret|wincred|gnome-keyring)$/;
const SIGNERS = new Set(['gpg', 'gpg2', 'gpgsm', 'ssh-keygen']);
/** Where those programs are installed; a program elsewhere (`/tmp/x/less`) may be anything. */
const SYSTEM_BIN = /^(?:\/usr(?:\/local)?\/s?bin|\/s?bin|\/opt\/homebrew\/bin|\/opt\/local\/bin|\/snap\/bin|\/usr\/lib\/git-core|\/usr\/libexec\/git-core|\/usr\/local\/MacGPG2\/bin)$/;
/** Options whose value may be given with `=` (anything else with a value, like `--pager=…`, is not harmless). */
const VALUED = /^--(?:timeout|features|tabs|syntax-theme|theme|paging|style|width|color|colou?r-moved|wrap|language|line-numbers-\w+)=[\w.,:%+-]*$/;
/** less writes a log (`-o`/`-O`) and reads key bindings (`-k`) from files named in an attached value. */
const LESS_FILE_OPTIONS = /^-[^-]*[oOk]/;

type ProgramKind = 'program' | 'credential' | 'signer';

/**
 * The value runs a well-known pager, editor or helper (`delta`, `less -FRX`, `code --wait`,
 * `cache --timeout=3600`, a pipeline of them), with flags only: no operands, no option values
 * that could be code or files. Anything else is judged as code by the caller.
 */
export function harmlessProgram(value: string, kind: ProgramKind = 'program'): boolean {
  const stages = value.split('|');
  return stages.every((stage) => harmlessStage(stage, kind));
}

function harmlessStage(stage: string, kind: ProgramKind): boolean {
  const words = [...stage.matchAll(/"([^"\\$`]*)"|'([^']*)'|([^\s'"\\$`;&<>()]+)|(\S)/g)];
  if (!words.length || words.some((m) => m[4] !== undefined)) return false;
  const [program, ...args] = words.map((m) => m[1] ?? m[2] ?? m[3]!);
  const slash = program!.lastIndexOf('/');
  if (slash >= 0 && !SYSTEM_BIN.test(program!.slice(0, slash))) return false;
  const name = program!.slice(slash + 1);
  const known = kind === 'credential' ? CREDENTIAL_HELPERS.test(name) : kind === 'signer' ? SIGNERS.has(name) : PROGRAMS.has(name);
  if (!known) return false;
  if (/^(?:less|more|most)$/.test(name) && args.some((a) => LESS_FILE_OPTIONS.test(a))) return false;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (name === 'ssh' && SSH_VALUED.test(a) && i + 1 < args.length) {
      if (!sshValueHarmless(a, args[(i += 1)]!)) return false;
    } else if (name === 'ssh' && /^-o./.test(a)) {
      if (!sshValueHarmless('-o', a.slice(2))) return false;
    } else if (!/^--?[A-Za-z0-9][A-Za-z0-9-]*$/.test(a) && !VALUED.test(a)) return false;
  }
  return true;
}

/** ssh's options with a value that runs nothing: a key, a port, a user, and `-o` settings that are not commands. */
const SSH_VALUED = /^-[ilpo]$/;
const SSH_SETTINGS = /^(?:IdentityFile|IdentitiesOnly|IdentityAgent|StrictHostKeyChecking|UserKnownHostsFile|GlobalKnownHostsFile|Port|User|ConnectTimeout|ConnectionAttempts|BatchMode|ServerAliveInterval|ServerAliveCountMax|LogLevel|HostKeyAlgorithms|PubkeyAcceptedKeyTypes|PubkeyAcceptedAlgorithms|PreferredAuthentications|PasswordAuthentication|AddKeysToAgent|ForwardAgent|Compression|ControlMaster|ControlPath|ControlPersist|UpdateHostKeys|HashKnownHosts|AddressFamily)\s*[= ]\s*[\w.,/~@%:+=-]*$/i;

function sshValueHarmless(option: string, value: string): boolean {
  return option === '-o' ? SSH_SETTINGS.test(value) : /^[\w.,/~@:+-]+$/.test(value);
}

// ── assignments ──

export function judgeAssignment(name: string, value: WordValue, inv: Invocation, j: Judgement): void {
  const text = literal(value);
  if (COMMAND_VARIABLES.test(name)) {
    if (text === null) j.add('dangerous', 'code.environment', name, `${name}=${display(value)} is a command decided at run time`);
    else if (text.trim() && (NEVER_HARMLESS.test(name) || !harmlessProgram(text))) {
      j.add('dangerous', 'code.environment', name, `${name} makes the command run \`${text}\``);
      // LESSOPEN's `|cmd %s` form pipes through cmd.
      j.code(text.replace(/^\|-?/, ''), inv, false);
    }
  } else if (LOADER_VARIABLES.test(name) && (text === null || text.trim() !== '')) {
    j.add('dangerous', 'code.environment', name, `${name}=${display(value)} makes programs load code`);
    // `BASH_ENV=<(echo 'cmd') bash`: what the file holds runs first.
    const output = value.pieces.find((p) => p.kind === 'unknown' && p.output !== undefined);
    if (output?.kind === 'unknown' && output.output && /^(?:BASH_ENV|ENV)$/.test(name)) j.code(output.output, inv);
    // bash expands BASH_ENV and ENV before using them: `$(…)` in them runs.
    if (/^(?:BASH_ENV|ENV)$/.test(name)) for (const code of codeIn(text ?? display(value))) j.code(code, inv);
  } else if (name === 'NODE_OPTIONS' && /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader)\b/.test(text ?? display(value))) {
    j.add('dangerous', 'code.environment', name, `NODE_OPTIONS=${display(value)} makes node load code`);
  } else if (/^GIT_CONFIG_VALUE_\d+$/.test(name) && text?.startsWith('!')) {
    j.add('dangerous', 'git.alias', 'git alias', `${name} defines a git alias that runs \`${text.slice(1)}\``);
    j.code(text.slice(1), inv);
  } else if (/^GIT_CONFIG_VALUE_\d+$/.test(name) && text) {
    // Paired with a GIT_CONFIG_KEY_n (`core.pager`, `core.sshCommand`, …): judged for what it would run.
    j.code(text, inv, false);
  } else if (name === 'TAR_OPTIONS' && text) {
    j.command([lit('tar'), ...text.split(/\s+/).filter(Boolean).map((t) => lit(t))], inv, 'TAR_OPTIONS');
  } else if (name === 'MAKEFLAGS' || name === 'MFLAGS' || name === 'GNUMAKEFLAGS') {
    const evaled = /--eval[= ](.*)$/s.exec(text ?? display(value))?.[1];
    const recipe = evaled && (/^[^:=\n]+:[^;\n=]*;(.+)$/m.exec(evaled)?.[1] ?? /\$\(shell\s+([^)]*)\)/.exec(evaled)?.[1]);
    if (evaled) j.add('dangerous', 'code.environment', name, `${name} makes make evaluate \`${evaled}\``);
    if (recipe) j.code(recipe, inv);
  } else if (/^BASH_FUNC_.+(?:%%|\(\))$/.test(name) && text) {
    // An exported function: bash defines it in every child shell, shadowing the command of that name.
    j.add('dangerous', 'code.environment', name, `${name} defines a function every bash will run in place of a command`);
    j.code(text.replace(/^\(\)\s*\{?|\}\s*$/g, ''), inv);
  } else if (name === 'PATH' && riskyPath(display(value))) {
    j.add('dangerous', 'code.environment', 'PATH', `PATH=${display(value)} makes commands resolve to programs in a temporary or relative directory first`);
  }
}

/** Directories searched before the usual PATH that are temporary or relative (`/tmp/evil:$PATH`, `.:$PATH`). */
function riskyPath(value: string): boolean {
  const dirs = value.split(':');
  const rest = dirs.findIndex((d) => /\$\{?PATH\}?/.test(d));
  return dirs.slice(0, rest >= 0 ? rest : dirs.length).some((d) => !d.startsWith('$') && (d === '' || d === '.' || !d.startsWith('/') || /^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)/.test(d)));
}
