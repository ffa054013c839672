import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.ts';
import { toolEnvironment } from './toolEnvironment.ts';
import { isSecretName } from './secretNames.ts';

const plain = new Redactor();

describe('Redactor', () => {
  it('removes known values wherever they appear, and ignores trivially short ones', () => {
    const r = new Redactor(['zq-distinctive-value-77', 'short', 'true']);
    expect(r.redact('KEY=zq-distinctive-value-77\nand again:zq-distinctive-value-77.')).toBe(`KEY=${REDACTED}\nand again:${REDACTED}.`);
    expect(r.redact('short and true stay')).toBe('short and true stay');
  });

  it('removes a longer known value whole when it contains a shorter one', () => {
    const r = new Redactor(['abcdefgh12', 'abcdefgh12-longer-value']);
    expect(r.redact('x abcdefgh12-longer-value y')).toBe(`x ${REDACTED} y`);
  });

  it.each([
    ['OpenAI key', 'key is sk-proj-AbCdEfGhIjKlMnOpQrStUvWx012345', 'sk-'],
    ['Anthropic key', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt_uvw', 'sk-ant-'],
    ['OpenRouter key', 'sk-or-v1-0123456789abcdef0123456789abcdef', 'sk-'],
    ['GitHub token', 'ghp_0123456789abcdefABCDEF0123456789abcd', 'ghp_'],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'github_pat_'],
    ['AWS access key id', 'aws AKIAIOSFODNN7EXAMPLE here', 'AKIA'],
    ['Slack token', 'xoxb-123456789012-abcdefghijkl', 'xoxb-'],
    ['Google key', 'AIzaSyA1234567890abcdefghijklmnopqrstuv', 'AIza'],
  ])('removes a %s', (_what, text, prefix) => {
    const out = plain.redact(text);
    expect(out).toContain(`${prefix}${REDACTED}`);
    expect(out).not.toMatch(/0123456789abcdef|AbCdEfGh|IOSFODNN|abcdefghijkl|1234567890abc/);
  });

  it('removes bearer tokens and whole Authorization header values, in any case', () => {
    expect(plain.redact('curl -H "Authorization: Bearer abc.def-123_456"')).toBe(`curl -H "Authorization: ${REDACTED}"`);
    expect(plain.redact('{"authorization":"Bearer tok3n-value-xyz","x":1}')).toBe(`{"authorization":"${REDACTED}","x":1}`);
    expect(plain.redact('x-api-key: my-key-12345678')).toBe(`x-api-key: ${REDACTED}`);
    expect(plain.redact('then BEARER zzzzzzzz9 was sent')).toBe(`then BEARER ${REDACTED} was sent`);
  });

  it('removes api_key=… style assignments but keeps code that only names a secret', () => {
    expect(plain.redact('api_key=a1b2c3d4e5f6g7h8')).toBe(`api_key=${REDACTED}`);
    expect(plain.redact('MY_SERVICE_TOKEN: "9f8e7d6c5b4a39281706"')).toBe(`MY_SERVICE_TOKEN: "${REDACTED}"`);
    expect(plain.redact('password=hunter2hunter2')).toBe(`password=${REDACTED}`);
    const code = 'api_key = os.environ.get("OPENAI_API_KEY")\ntoken = process.env.GITHUB_TOKEN\nmax_tokens: 4096\ntotal_tokens=12345678';
    expect(plain.redact(code)).toBe(code);
  });

  it('keeps code that builds a header or a URL from variables readable', () => {
    const code = [
      'headers: { Authorization: `Bearer ${token}` },',
      'headers["Authorization"] = "Bearer " + apiKey;',
      "'x-api-key': process.env.ANTHROPIC_API_KEY,",
      'Authorization: getAuthHeader(),',
      'url = f"postgres://{user}:{password}@{host}/db"',
      'const dsn = `mysql://${USER}:${PASS}@localhost`;',
      'password = "${DB_PASSWORD}"',
    ].join('\n');
    expect(plain.redact(code)).toBe(code);
  });

  it('removes a known value encoded the way commands encode it: base64 at any alignment, hex, reversed', () => {
    const value = 'dotenv-only-secret-q8w7e6r5t4';
    const r = new Redactor([value]);
    for (const prefix of ['', 'a', 'ab', 'SECRET=', 'x'.repeat(100)]) {
      for (const encoded of [Buffer.from(`${prefix}${value}\n`).toString('base64'), Buffer.from(`${prefix}${value}`).toString('base64url')]) {
        const out = r.redact(encoded);
        expect(out, prefix).toContain(REDACTED);
        expect(Buffer.from(out.replace(REDACTED, ''), 'base64').toString('latin1')).not.toContain(value.slice(2, -2));
      }
    }
    expect(r.redact(`hex: ${Buffer.from(value).toString('hex')} HEX: ${Buffer.from(value).toString('hex').toUpperCase()}`)).toBe(`hex: ${REDACTED} HEX: ${REDACTED}`);
    expect(r.redact(`rev: ${[...value].reverse().join('')}`)).toBe(`rev: ${REDACTED}`);
    // Wrapped the way `base64` (76 columns) and `xxd -p` (60) wrap.
    const wrap = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
    const b64 = wrap(Buffer.from(`${'k'.repeat(60)}=${value}\n`).toString('base64'), 76);
    expect(Buffer.from(r.redact(b64).replace(REDACTED, ''), 'base64').toString('latin1')).not.toContain(value.slice(2, -2));
    expect(r.redact(wrap(Buffer.from(`${'k'.repeat(20)}${value}`).toString('hex'), 60))).toMatch(/^[0-9a-f\n]*\[REDACTED\]$/);
  });

  it('removes URL credentials and private key blocks', () => {
    expect(plain.redact('postgres://admin:s3cr3tpass@db:5432/x')).toBe(`postgres://admin:${REDACTED}@db:5432/x`);
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
    expect(plain.redact(`before\n${pem}\nafter`)).toBe(`before\n-----BEGIN OPENSSH PRIVATE KEY-----${REDACTED}\nafter`);
  });

  it('removes credentials in a URL query, keeping other parameters and code that builds one', () => {
    expect(plain.redact('GET http://127.0.0.1:9/v1?key=abcd1234efgh5678&x=1 failed')).toBe(`GET http://127.0.0.1:9/v1?key=${REDACTED}&x=1 failed`);
    expect(plain.redact('https://h/x?a=b&access_token=ya29a0AfH6SMBxyz12&sig=Zm9vYmFyYmF6cXV4MTIz')).toBe(`https://h/x?a=b&access_token=${REDACTED}&sig=${REDACTED}`);
    for (const text of ['https://h/search?q=monkey-business&page=12', 'fetch(`${base}?key=${apiKey}`)', 'https://h/x?token=process.env.TOKEN']) expect(plain.redact(text)).toBe(text);
  });

  it('a URL query credential in prose ends before the text after it (a closing parenthesis, a colon, a full stop)', () => {
    expect(plain.redact('MCP server "h" (https://x.example/mcp?api_key=abcd1234efgh5678): connection refused')).toBe(
      `MCP server "h" (https://x.example/mcp?api_key=${REDACTED}): connection refused`,
    );
    expect(plain.redact('failed at https://x.example/mcp?token=abcd1234efgh5678: refused. See https://h/x?key=abcd1234efgh5678.')).toBe(
      `failed at https://x.example/mcp?token=${REDACTED}: refused. See https://h/x?key=${REDACTED}.`,
    );
  });

  it('leaves ordinary text alone', () => {
    const text = 'task-runner sk-short the desk-lamp Bearer of news; ghp_short; AKIA is a word; https://example.com/a:b@c';
    expect(plain.redact(text)).toBe(text);
  });

  it('redacts deep values, copying only what changed', () => {
    const r = new Redactor(['deep-secret-value']);
    const untouched = { a: ['x'] };
    const input = { keep: untouched, list: ['ok', 'has deep-secret-value'], n: 3 };
    const out = r.redactDeep(input);
    expect(out).toEqual({ keep: untouched, list: ['ok', `has ${REDACTED}`], n: 3 });
    expect(out.keep).toBe(untouched);
    expect(input.list[1]).toBe('has deep-secret-value');
  });

  it('handles 5 MB inputs in one pass, including ones built to make a regex backtrack', () => {
    const r = new Redactor(['zq-distinctive-value-77']);
    const line = 'some ordinary tool output with words, paths /usr/lib/x and numbers 1234567890\n';
    const big = line.repeat(Math.ceil((5 * 1024 * 1024) / line.length)) + 'zq-distinctive-value-77';
    const out = r.redact(big);
    expect(out.endsWith(REDACTED)).toBe(true);
    expect(out.length).toBe(big.length - 'zq-distinctive-value-77'.length + REDACTED.length);
    // Long runs that nearly match a shape: a keyword with an endless tail, word characters, separators.
    for (const hostile of ['token'.repeat(1_000_000), 'a'.repeat(5_000_000), `api_key${'_'.repeat(5_000_000)}`, `Authorization:${' '.repeat(5_000_000)}`, `://${'a'.repeat(5_000_000)}`, `-----BEGIN RSA PRIVATE KEY-----${'x'.repeat(5_000_000)}`]) {
      expect(r.redact(hostile)).toBe(hostile);
    }
  });
});

describe('secret names and the tool environment', () => {
  it('knows secret-shaped names but not ordinary ones', () => {
    for (const name of ['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'AWS_SECRET_ACCESS_KEY', 'STRIPE_SECRET', 'MY_APIKEY', 'DB_PASS']) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['PATH', 'HOME', 'SSH_AUTH_SOCK', 'TERM', 'HERMES_HOME', 'LANG', 'TOKENIZERS_PARALLELISM']) expect(isSecretName(name), name).toBe(false);
  });

  it('withholds provider keys and .env variables unless passed through', () => {
    const env = { PATH: '/bin', OPENAI_API_KEY: 'k1', ANTHROPIC_API_KEY: 'k2', FROM_DOTENV: 'v', GITHUB_TOKEN: 'g' };
    expect(toolEnvironment(env, { dotenvNames: ['FROM_DOTENV', 'ONLY_IN_DOTENV'] })).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'g' });
    expect(
      toolEnvironment(env, { dotenvNames: ['FROM_DOTENV', 'ONLY_IN_DOTENV'], passthrough: ['ANTHROPIC_API_KEY', 'ONLY_IN_DOTENV'], values: { ONLY_IN_DOTENV: 'd' } }),
    ).toEqual({ PATH: '/bin', GITHUB_TOKEN: 'g', ANTHROPIC_API_KEY: 'k2', ONLY_IN_DOTENV: 'd' });
  });
});
