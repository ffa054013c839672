/** Command-line arguments of `hermes`. Pure: parsing and help text, no side effects. */
import { parseArgs } from 'node:util';
import { UsageError } from '@hermes/rpc-server/protocol';
import type { BackendOptions } from '../rpc/backendCommand.ts';

/** What the TUI's backend is started with, from the command line (main.tsx, and the launcher's early spawn). */
export function backendOptionsOf(options: CliOptions): BackendOptions {
  return { model: options.model, provider: options.provider, baseUrl: options.baseUrl, demo: options.demo };
}

export interface CliOptions {
  tui: boolean;
  demo: boolean;
  model?: string;
  provider?: string;
  baseUrl?: string;
  version: boolean;
  help: boolean;
  /** `hermes chat -q "…"`: the one prompt to answer headlessly. */
  query?: string;
  /** `--json`: print the event stream as NDJSON instead of the answer. */
  json: boolean;
  /** `--yolo`: dangerous commands run without asking (hardline ones never do). */
  yolo: boolean;
  /** `--resume <id|title>`: open the TUI (or `chat -q`) on a stored session. */
  resume?: string;
  /** `--continue`: open the TUI (or `chat -q`) on the most recent session. */
  continueLatest: boolean;
  /** `hermes sessions list --limit N`, kept as typed; the command checks it. */
  limit?: string;
  /** `hermes sessions export --format md|json`. */
  format?: string;
  /** `hermes sessions search --all`: read every message for text too short for an index (slow on a large store). */
  all: boolean;
  /** `hermes approvals check --write PATH`: judge a file write instead of a command. */
  write?: string;
  /** `hermes approvals check --cwd DIR`: where the command runs (default: the current directory). */
  cwd?: string;
  /** `hermes mcp add`: the server to add, as given (checked by the command, stored by the backend). */
  mcpServer?: McpServerOptions;
  /** `hermes doctor --online`: also send the configured model one tiny request. */
  online: boolean;
  positionals: string[];
}

/** `hermes mcp add <name> (--command <cmd> [--arg <a>]… [--env K=V]… | --url <u> [--header K=V]…)`. */
export interface McpServerOptions {
  command?: string;
  args: string[];
  env: string[];
  url?: string;
  headers: string[];
}

export const HELP_TEXT = `hermes — a terminal AI agent

Usage:
  hermes [--tui] [options]     open the interactive terminal UI (the default on a terminal)
  hermes --demo                try it with a scripted demo model: no API key needed
  hermes chat -q "<prompt>"    answer one prompt without the TUI and print the answer
                               (--json prints the event stream as NDJSON; approvals are
                               denied unless --yolo; -c or --resume <id|title> continues
                               a saved session instead of starting one)
  hermes -c | --continue       reopen the most recent session
  hermes -r | --resume <id|title>
                               reopen a saved session by its id or exact title
  hermes sessions list [--limit N]            saved sessions, newest first
  hermes sessions search <query> [--all]      full-text search of the stored messages
  hermes sessions show <id|title>             print a session's transcript
  hermes sessions export <id|title> --format md|json
  hermes sessions delete <id|title>
  hermes approvals check '<command>' [--cwd DIR]
                               how the approval gate judges a command: prints safe,
                               dangerous or hardline, then each finding (level, rule,
                               target, why). Exit 0 when judged, whatever the verdict;
                               1 when it could not judge. Runs nothing, creates nothing
  hermes approvals check --write PATH [--cwd DIR]
                               the same for a file write by write_file/patch
  hermes approvals check --json
                               one JSON object per stdin line, {"command"|"write_path",
                               "cwd"?}; one JSON verdict (or {"error"}) per line on
                               stdout, in order; exit 1 if any line got an error
  hermes mcp list              the MCP servers in config.yaml: status, tool count, error
                               (connects to them first, waiting at most 15 s)
  hermes mcp add <name> --command <cmd> [--arg <a>]... [--env K=V]... [-- <arg>...]
  hermes mcp add <name> --url <url> [--header K=V]...
                               add a stdio or HTTP MCP server to config.yaml (comments
                               kept); the command's arguments with --arg, or as words
                               after it (after -- when one starts with -); a value may
                               name a variable: --env K='\${K}'
  hermes mcp remove <name>     remove it from config.yaml
  hermes mcp test <name>       connect to it: the tools found and the latency (exit 1
                               with the error when it fails)
  hermes doctor [--online]     check the setup: Node, $HERMES_HOME, SQLite, config.yaml,
                               the model and its key, plugins; one line per check with a
                               fix for each failure; exit 1 if any failed. --online also
                               sends the model one tiny request

Options:
  --tui                 open the interactive terminal UI
  --demo                use the scripted demo model (starts a local model server)
  --model <name>        model to use for this session (e.g. gpt-4o)
  --provider <id>       provider to use (e.g. openai, anthropic, custom)
  --base-url <url>      OpenAI-compatible endpoint, e.g. http://localhost:11434/v1
  --cwd <dir>           approvals check: the directory the command runs in (default: here)
  --write <path>        approvals check: judge a file write to <path> instead of a command
  --command, --arg, --env, --url, --header
                        mcp add: the server's command, each argument (taken verbatim,
                        even one starting with -), environment, URL, HTTP headers
  --online              doctor: also try a round trip to the configured model
  -V, --version         print the version and exit (also: hermes version)
  -h, --help            show this help

Keys in the TUI:
  Enter                 send the prompt (Alt+Enter or a trailing \\ for a new line)
  Ctrl+C                clear the prompt, else interrupt the reply, else press twice to exit
  Ctrl+D                exit when the prompt is empty
  Ctrl+X                pick a saved session to resume (or type /sessions)
  /                     slash commands: type / for the list (↑/↓ select, Tab completes,
                        Esc closes); /help shows them all

Configuration lives in $HERMES_HOME (default ~/.hermes): config.yaml for settings, .env for API keys.
Logs: $HERMES_HOME/logs/tui.log.
`;

/** Thrown for arguments hermes does not understand; the message is meant for the user (the wire's 4004 error). */
export { UsageError };

/**
 * Commands hermes itself handles, in the order an unknown command's error lists them; any other first
 * word is a plugin's CLI command.
 */
export const BUILTIN_CLI_COMMANDS: readonly string[] = ['chat', 'sessions', 'plugins', 'approvals', 'mcp', 'doctor', 'version'];

export function parseCliArgs(argv: string[]): CliOptions {
  const first = argv[0];
  // A plugin's own command (`hermes <name> …`): its words and flags are its handler's to read, untouched.
  if (first !== undefined && !first.startsWith('-') && !BUILTIN_CLI_COMMANDS.includes(first)) return pluginCommand(argv);
  // `hermes version`, as Hermes has it: the same as --version.
  if (first === 'version') {
    if (argv.length > 1) throw new UsageError('hermes version takes no arguments.');
    return { ...pluginCommand([]), version: true };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: first === 'mcp' ? verbatimArgs(argv) : argv,
      allowPositionals: true,
      strict: true,
      options: {
        tui: { type: 'boolean', default: false },
        demo: { type: 'boolean', default: false },
        model: { type: 'string' },
        provider: { type: 'string' },
        'base-url': { type: 'string' },
        version: { type: 'boolean', short: 'V', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        query: { type: 'string', short: 'q' },
        json: { type: 'boolean', default: false },
        yolo: { type: 'boolean', default: false },
        resume: { type: 'string', short: 'r' },
        continue: { type: 'boolean', short: 'c', default: false },
        limit: { type: 'string' },
        format: { type: 'string' },
        all: { type: 'boolean', default: false },
        write: { type: 'string' },
        cwd: { type: 'string' },
        command: { type: 'string' },
        arg: { type: 'string', multiple: true },
        env: { type: 'string', multiple: true },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        online: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (!values.help && !values.version) checkOptionScope(values, positionals);
  return {
    tui: values.tui,
    demo: values.demo,
    model: values.model,
    provider: values.provider,
    baseUrl: values['base-url'],
    version: values.version,
    help: values.help,
    query: values.query,
    json: values.json,
    yolo: values.yolo,
    resume: values.resume,
    continueLatest: values.continue,
    limit: values.limit,
    format: values.format,
    all: values.all,
    write: values.write,
    cwd: values.cwd,
    ...(first === 'mcp' ? { mcpServer: { command: values.command, args: values.arg ?? [], env: values.env ?? [], url: values.url, headers: values.header ?? [] } } : {}),
    online: values.online,
    positionals,
  };
}

/**
 * `--arg -y` means the argument `-y` (npx's flag, say): parseArgs would refuse a value starting with a
 * dash as ambiguous, so each `--arg`'s next word is joined to it (`--arg=-y`) before parsing. After
 * `--`, every word is a positional (the server's arguments), as parseArgs has it.
 */
function verbatimArgs(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return [...out, ...argv.slice(i)];
    if (argv[i] === '--arg' && i + 1 < argv.length) out.push(`--arg=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

function pluginCommand(argv: string[]): CliOptions {
  return { tui: false, demo: false, version: false, help: false, json: false, yolo: false, continueLatest: false, all: false, online: false, positionals: argv };
}

const MODEL_OPTIONS = ['model', 'provider', 'base-url'];
/** Which options each command reads; anything else given to it is refused rather than silently ignored. */
const OPTION_SCOPE: Record<string, string[]> = {
  '': ['tui', 'demo', 'resume', 'continue', ...MODEL_OPTIONS],
  chat: ['query', 'json', 'yolo', 'resume', 'continue', ...MODEL_OPTIONS],
  sessions: ['limit', 'format', 'all', ...MODEL_OPTIONS],
  plugins: MODEL_OPTIONS,
  approvals: ['json', 'write', 'cwd'],
  mcp: ['command', 'arg', 'env', 'url', 'header'],
  doctor: ['online', ...MODEL_OPTIONS],
};

function checkOptionScope(values: Record<string, unknown>, positionals: string[]): void {
  const command = positionals[0] ?? '';
  const scope = OPTION_SCOPE[command];
  if (!scope) return;
  const given = Object.keys(values).filter((name) => values[name] !== undefined && values[name] !== false);
  const stray = given.find((name) => !scope.includes(name));
  const where = command ? `hermes ${command}` : 'the TUI (hermes with no command)';
  if (stray) throw new UsageError(`--${stray} does not apply to ${where}.`);
  if (command === 'chat' && positionals.length > 1) {
    throw new UsageError(`hermes chat takes the prompt with -q "<prompt>", not as "${positionals[1]}" (quote a prompt with spaces).`);
  }
}

export const NO_TTY_MESSAGE =
  'hermes --tui needs an interactive terminal (stdin and stdout must be a TTY).\n' +
  'For one-shot use without a terminal: hermes chat -q "<prompt>".\n';
