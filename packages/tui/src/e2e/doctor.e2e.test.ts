/**
 * `hermes doctor` as a user runs it: the real CLI process, its real backend, real homes. The
 * Hermes-home fixture gives the expected report (exit 0, the key never printed, nothing rewritten);
 * each failure has its fix and makes the exit status 1; warnings do not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { stdioTestServer } from '../../../../scripts/mcp-servers/launch.ts';
import { startModelServer, type ModelServer } from '../../../../scripts/model-server/index.ts';
import { addedFiles, addHermesStateDb, changedFiles, fileHash, hermesHomeCopy, snapshotFiles } from '../../../../scripts/testing/hermesHomeFixture.ts';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';
import { HERMES_BIN } from '../testing/ptyHarness.ts';
import { CLEAN_ENV } from '../testing/realBackend.ts';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const FIXTURE_KEY = 'sk-or-v1-fixture0000000000000000000000000000000000000000000000';

function hermes(home: string, args: string[], user?: { uid: number; gid: number }) {
  return execa(process.execPath, [HERMES_BIN, ...args], { env: { ...CLEAN_ENV, HERMES_HOME: home }, reject: false, stdin: 'ignore', timeout: 60_000, ...(user ?? {}) });
}

/** The report's line for check `name` (each check is one line: `<status>  <name>: <detail>[ — fix: <fix>]`). */
function row(stdout: string, name: string): string {
  const found = stdout.split('\n').filter((line) => line.slice(6).startsWith(`${name}: `));
  expect(found, `one line for ${name} in:\n${stdout}`).toHaveLength(1);
  return found[0]!;
}

describe('hermes doctor on a Hermes home', () => {
  it('reports each check on one line, lists the Hermes keys it does not implement once, exits 0, rewrites nothing', async () => {
    const home = hermesHomeCopy();
    const before = snapshotFiles(home);
    const result = await hermes(home, ['doctor']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const out = result.stdout;
    expect(row(out, 'node')).toMatch(/^ok {4}node: Node \d+\.\d+\.\d+ \(hermes needs >=20\.11 <23\)$/);
    expect(row(out, 'home')).toBe(`ok    home: ${home} (writable)`);
    expect(row(out, '.env')).toBe(`ok    .env: ${home}/.env (readable by its owner only)`);
    expect(row(out, 'sqlite')).toMatch(/^ok {4}sqlite: SQLite 3\.\d+\.\d+ \(better-sqlite3 addon loaded\)$/);
    expect(row(out, 'sessions')).toBe(`ok    sessions: hermes keeps its sessions in ${home}/state.db (not created yet: hermes creates it at its first start)`);
    expect(row(out, 'config.yaml')).toMatch(/^ok {4}config\.yaml: .*config\.yaml: \d+ top-level keys, no problems$/);
    expect(row(out, 'hermes keys')).toBe(
      'info  hermes keys: config.yaml sets Hermes keys hermes does not implement: _config_version, model.max_tokens, agent.max_verify_nudges, ' +
        'agent.disabled_toolsets, terminal.cwd, approvals.cron_mode, approvals.single_query_mode, approvals.deny, compression.target_ratio, ' +
        'compression.protect_last_n, compression.in_place, display, memory, delegation, custom_providers, smart_model_routing, telegram; ' +
        'and Hermes toolsets it does not have: web (left as they are, ignored)',
    );
    expect(row(out, 'model')).toBe(`ok    model: openrouter/anthropic/claude-opus-4.6 at https://openrouter.ai/api/v1 (OPENROUTER_API_KEY set in ${home}/.env)`);
    expect(row(out, 'plugin honcho-memory')).toBe(
      `info  plugin honcho-memory: not loadable here (Python): a Hermes plugin (${home}/plugins/honcho-memory); hermes runs JavaScript and TypeScript plugins`,
    );
    expect(row(out, 'mcp filesystem')).toMatch(/^info {2}mcp filesystem: disabled in config\.yaml \(enabled: false\): npx .*server-filesystem/);
    expect(out).not.toMatch(/^(FAIL|warn)/m);
    expect(out.trimEnd().split('\n').at(-1)).toBe('no failures (hermes doctor --online also tries the model)');
    expect(out).not.toContain(FIXTURE_KEY.slice(10));
    expect(changedFiles(before, snapshotFiles(home))).toEqual([]);
    // Doctor creates no session store (the Python Hermes would later find a foreign `sessions` table in it).
    expect(addedFiles(before, snapshotFiles(home)).filter((f) => !/^(logs\/[\w.-]+|plugins\/\.(last-load|loading)\.json)$/.test(f))).toEqual([]);
  });

  it('--online sends the configured model one request, with the home\'s key, and reports the answer', async () => {
    const server = await startModelServer({ turns: [{ text: 'OK' }] });
    servers.push(server);
    const home = hermesHomeCopy('model-string');
    const result = await hermes(home, ['doctor', '--online', '--base-url', server.baseUrl]);
    expect(result.exitCode).toBe(0);
    expect(row(result.stdout, 'online')).toMatch(new RegExp(`^ok {4}online: openrouter/anthropic/claude-sonnet-4 at ${server.baseUrl.replace(/[.]/g, '\\.')} answered in \\d+ ms \\("OK"\\)$`));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${FIXTURE_KEY}`);
  });

  it('MCP servers: one row each, connected with its tool count, disabled, or failed with what it said and the fix', async () => {
    const home = hermesHomeCopy();
    const config = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    const good = stdioTestServer();
    const bad = stdioTestServer('--fail-at-start');
    const servers = [
      'mcp_servers:',
      '  filesystem:\n    command: npx\n    args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]\n    enabled: false',
      `  tester:\n    command: ${JSON.stringify(good.command)}\n    args: ${JSON.stringify(good.args)}`,
      `  broken:\n    command: ${JSON.stringify(bad.command)}\n    args: ${JSON.stringify(bad.args)}`,
    ].join('\n');
    fs.writeFileSync(path.join(home, 'config.yaml'), config.replace(/^mcp_servers:\n(?: {2}.*\n)+/m, `${servers}\n`));
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'mcp filesystem')).toMatch(/^info {2}mcp filesystem: disabled/);
    // The fixture's `toolsets: [terminal, file, todo, web]` leaves MCP tools out, as Hermes would: a warning saying how to add them.
    expect(row(result.stdout, 'mcp tester')).toMatch(
      /^warn {2}mcp tester: connected \(stdio: .*stdioServer\.ts\): [1-9]\d* tools?; its tools are not offered to the model: `toolsets` in config\.yaml leaves out mcp-tester; add mcp-tester \(or hermes-cli, which includes every MCP server\) to it$/,
    );
    expect(row(result.stdout, 'mcp broken')).toMatch(
      new RegExp(`^FAIL  mcp broken: MCP server "broken" \\(.*stdioServer\\.ts --fail-at-start\\): the server process exited with code 3 before it finished initialize; its stderr ended with: \\| .* — fix: check mcp_servers\\.broken in ${home}/config\\.yaml \\(command, args, url, env\\); hermes mcp test broken tries it alone$`),
    );
  });

  it('hermes plugins list shows the Python plugin as not loadable here, with the variables it needs', async () => {
    const result = await hermes(hermesHomeCopy(), ['plugins', 'list']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      'honcho-memory\t1.2.0\tuser\tdisabled\tnot loaded yet\tnot loadable here (Python)\tmissing env: HONCHO_API_KEY, HONCHO_PROJECT_ID (Honcho project identifier)',
    );
  });
});

describe('hermes doctor failures: each with its fix, exit 1', () => {
  it('no key for the model: says which variable and where to put it, never a key', async () => {
    const home = hermesHomeCopy();
    fs.writeFileSync(path.join(home, '.env'), 'FIRECRAWL_API_KEY=fc-fixture000000000000000000000000\n', { mode: 0o600 });
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'model')).toBe(
      `FAIL  model: openrouter/anthropic/claude-opus-4.6: Provider "openrouter" needs an API key in OPENROUTER_API_KEY, and it is not set. — fix: put OPENROUTER_API_KEY=<your key> in ${home}/.env (or export it), then run hermes doctor again`,
    );
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 failed/);
  });

  it("Hermes's `model: anthropic/claude-sonnet-4` with no key: the variables that would serve it and where to put them", async () => {
    const home = tempDir('hermes-doctor-slug-');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model: anthropic/claude-sonnet-4\n');
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'model')).toBe(
      `FAIL  model: anthropic/claude-sonnet-4: config.yaml names no provider, so hermes picks one by its key, and none is set: it needs OPENROUTER_API_KEY (OpenRouter serves anthropic/claude-sonnet-4) or ANTHROPIC_API_KEY (Anthropic's own API serves claude-sonnet-4) — fix: put OPENROUTER_API_KEY=<your key> or ANTHROPIC_API_KEY=<your key> in ${home}/.env (or export it), then run hermes doctor again`,
    );
    expect(result.stdout).not.toContain('No model provider is configured');
  });

  it('`model: ""`: a config.yaml problem, and the model line says no model is named', async () => {
    const home = tempDir('hermes-doctor-empty-');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model: ""\n');
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'config.yaml')).toMatch(new RegExp(`^FAIL  config\\.yaml: ${home}/config\\.yaml: model is an empty string \\(model: ""\\), so no model is named — fix: name a model in ${home}/config\\.yaml, e\\.g\\. model: anthropic/claude-sonnet-4`));
    expect(row(result.stdout, 'model')).toMatch(/^FAIL {2}model: no model is named: .*config\.yaml sets model: "" /);
    expect(result.stdout).not.toContain('No model provider is configured');
    // A start says the same, not that no provider is configured.
    const chat = await hermes(home, ['chat', '-q', 'hello']);
    expect(chat.exitCode).toBe(2);
    expect(chat.stderr).toMatch(/^hermes: config\.yaml sets model: "" \(an empty string\), which names no model\.\nConfigure a model in /);
  });

  it("an MCP server's escape sequences (clipboard write, title, clear screen) in its stderr never reach the terminal", async () => {
    const home = tempDir('hermes-doctor-mcp-');
    const hostile = `process.stderr.write('\\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b]0;pwned\\x07\\x1b[2Jcannot start\\n'); process.exit(3)`;
    fs.writeFileSync(path.join(home, 'config.yaml'), `mcp_servers:\n  evil:\n    command: ${JSON.stringify(process.execPath)}\n    args: ['-e', ${JSON.stringify(hostile)}]\n`);
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'mcp evil')).toMatch(/^FAIL {2}mcp evil: .*cannot start/);
    // eslint-disable-next-line no-control-regex
    for (const output of [result.stdout, result.stderr]) expect(output).not.toMatch(/[\x07\x1b\x9b]/);
  });

  it('config.yaml that is not YAML: the line and the fix', async () => {
    const home = tempDir('hermes-doctor-');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model:\n  default: gpt-4o\n  provider: [openai\n');
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'config.yaml')).toMatch(
      new RegExp(`^FAIL  config\\.yaml: ${home}/config\\.yaml line \\d: is not valid YAML at column \\d+: .* — fix: fix that line \\(check the indentation, quotes and brackets there\\); until then hermes ignores config\\.yaml and runs with default settings\\.$`),
    );
  });

  it('a HERMES_HOME it cannot write: the home and the session store, each with the chmod fix; the rest still checked', async () => {
    const home = tempDir('hermes-doctor-ro-');
    fs.chmodSync(home, 0o555);
    // Root ignores permissions: run as nobody then.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    const result = await hermes(home, ['doctor'], user);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'home')).toBe(
      `FAIL  home: ${home} cannot be written (hermes keeps state.db, logs and config changes there) — fix: chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write`,
    );
    // The backend of doctor creates no session store, so it starts and reports the rest.
    expect(result.stdout).not.toMatch(/^FAIL  backend:/m);
    expect(row(result.stdout, 'sessions')).toBe(
      `FAIL  sessions: Permission denied: hermes cannot write the session database ${home}/state.db (it needs to write the file and create files next to it in ${home}). — fix: chmod u+rwx ${home} (as the owner), or set HERMES_HOME to a folder you can write.`,
    );
    expect(result.stdout).not.toMatch(/^\s+at /m);
  });

  it("a home holding Hermes's own state.db: left alone (an info row), hermes's sessions in hermes-node.db, read-only", async () => {
    const home = hermesHomeCopy();
    const hermesDb = addHermesStateDb(home);
    const hash = fileHash(hermesDb);
    const before = snapshotFiles(home);
    const fresh = await hermes(home, ['doctor']);
    expect(fresh.exitCode).toBe(0);
    expect(row(fresh.stdout, 'sessions')).toBe(`ok    sessions: hermes keeps its sessions in ${home}/hermes-node.db (not created yet: hermes creates it at its first start)`);
    expect(row(fresh.stdout, 'state.db')).toBe(
      `info  state.db: ${hermesDb} is Hermes's own session database (the Python agent's schema): hermes leaves it alone and keeps its sessions in ${home}/hermes-node.db`,
    );
    expect(fs.existsSync(path.join(home, 'hermes-node.db'))).toBe(false);
    expect(changedFiles(before, snapshotFiles(home))).toEqual([]);
    expect(fs.readdirSync(home).filter((f) => f.startsWith('state.db'))).toEqual(['state.db']);

    // hermes chat -q works in this home; doctor then counts its session, still read-only.
    const server = await startModelServer({ turns: [{ text: 'Hi.' }] });
    servers.push(server);
    const chat = await hermes(home, ['chat', '-q', 'hello', '--base-url', server.baseUrl]);
    expect(chat.stderr).toBe('');
    expect(chat.stdout.trim()).toBe('Hi.');
    expect(chat.exitCode).toBe(0);
    const later = await hermes(home, ['doctor']);
    expect(row(later.stdout, 'sessions')).toMatch(new RegExp(`^ok {4}sessions: hermes keeps its sessions in ${home}/hermes-node\\.db \\(1 session, schema \\d+\\)$`));
    expect(fileHash(hermesDb)).toBe(hash);
  });

  it('plugins: one that fails (why, and how to turn it off), one missing a required variable (a warning with its description)', async () => {
    const home = tempDir('hermes-doctor-plugins-');
    const plugin = (name: string, yaml: string, code: string) => {
      fs.mkdirSync(path.join(home, 'plugins', name), { recursive: true });
      fs.writeFileSync(path.join(home, 'plugins', name, 'plugin.yaml'), yaml);
      fs.writeFileSync(path.join(home, 'plugins', name, 'index.js'), code);
    };
    plugin('broken', 'name: broken\n', 'export function register() { throw new Error("no config for broken"); }\n');
    plugin('weather', 'name: weather\nrequires_env:\n  - name: WEATHER_TOKEN\n    description: token from the weather service\n', "export function register(ctx) { ctx.registerCommand('weather', () => 'sunny'); }\n");
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model:\n  provider: ollama\n  default: llama3.1\n');
    fs.writeFileSync(path.join(home, '.env'), 'UNRELATED=1\n', { mode: 0o644 });
    fs.chmodSync(path.join(home, '.env'), 0o644);
    const result = await hermes(home, ['doctor']);
    expect(result.exitCode).toBe(1);
    expect(row(result.stdout, 'plugin broken')).toBe(
      `FAIL  plugin broken: failed to load: Error: no config for broken — fix: fix it (details in ${home}/logs/backend.log) or turn it off: hermes plugins disable broken`,
    );
    expect(row(result.stdout, 'plugin weather')).toBe(
      `warn  plugin weather: loaded (user): tools 0, hooks 0, middleware 0, commands 1; requires_env not set: WEATHER_TOKEN (token from the weather service) — fix: set WEATHER_TOKEN in ${home}/.env (or export them)`,
    );
    expect(row(result.stdout, '.env')).toBe(`warn  .env: ${home}/.env holds API keys and other users can read it (mode 644) — fix: chmod 600 ${home}/.env`);
    expect(row(result.stdout, 'model')).toBe('ok    model: ollama/llama3.1 at http://127.0.0.1:11434/v1 (no key needed)');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('1 failed, 2 warnings (hermes doctor --online also tries the model)');
  });

  it('warnings alone do not fail: exit 0', async () => {
    const home = tempDir('hermes-doctor-warn-');
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model:\n  provider: ollama\n  default: llama3.1\napprovels:\n  mode: off\ntoolsets: [file, fiel]\n');
    const result = await hermes(home, ['doctor']);
    expect(row(result.stdout, 'toolsets')).toMatch(/^warn {2}toolsets: Unknown toolset "fiel" in `toolsets`; known toolsets: .* — fix: correct `toolsets` in .*config\.yaml, or provide what the tool needs$/);
    expect(row(result.stdout, 'config.yaml')).toMatch(/^warn {2}config\.yaml: .* unknown key `approvels` — did you mean `approvals`\? \(hermes ignores it\) — fix: rename or remove the key at .*config\.yaml line 4$/);
    expect(result.exitCode).toBe(0);
  });
});
