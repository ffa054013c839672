/**
 * `${VAR}` in an MCP server's `env` and `headers` values: replaced with the variable from the process
 * environment, else `$HERMES_HOME/.env` (the runtime merges the two, the process winning). The values
 * put in, and credential headers, are told to the redactor before the server starts, so they never
 * reach a log, the store, the wire or the screen. A variable that is not set is an error naming it,
 * never an empty value.
 */
import { ErrorCode } from '../contract/errorCodes.ts';
import { HermesError } from '../contract/errors.ts';
import { rememberSecrets } from '../secrets/processSecrets.ts';
import { REDACTED } from '../secrets/redactor.ts';
import { isSecretName } from '../secrets/secretNames.ts';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** config.yaml names a variable that is not set: the user's to fix. */
export class MissingVariableError extends HermesError {
  override name = 'MissingVariableError';
  constructor(message: string) {
    super(ErrorCode.UsageError, message);
  }
}

/** Header names that carry credentials whatever their value looks like. */
const isCredentialHeader = (name: string) => /^(?:proxy-)?authorization$|api[-_]?key|token|secret|cookie/i.test(name) || isSecretName(name.toUpperCase().replace(/-/g, '_'));

/**
 * The values with their `${VAR}` references replaced. Throws MissingVariableError naming every
 * variable that is not set (and where it is used).
 */
function resolveReferences(
  values: Record<string, string>,
  env: Record<string, string | undefined>,
  where: string,
  options: { credentialNames?: (name: string) => boolean } = {},
): Record<string, string> {
  const missing = new Set<string>();
  const secrets: string[] = [];
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    let referenced = false;
    out[name] = value.replace(REFERENCE, (_, variable: string) => {
      referenced = true;
      const found = env[variable];
      if (found === undefined || found === '') {
        missing.add(variable);
        return '';
      }
      secrets.push(found);
      return found;
    });
    if (referenced || isSecretName(name) || options.credentialNames?.(name)) secrets.push(out[name]!);
  }
  if (missing.size > 0) {
    const names = [...missing];
    throw new MissingVariableError(
      `${where} uses ${names.map((n) => `\${${n}}`).join(', ')}, but ${names.length > 1 ? 'these variables are' : `${names[0]} is`} not set: ` +
        `set ${names.length > 1 ? 'them' : 'it'} in the environment or in $HERMES_HOME/.env`,
    );
  }
  rememberSecrets({}, {}, secrets.filter((s) => s !== ''));
  return out;
}

/** A server's `env` and `headers`, resolved; headers that carry credentials are secrets whatever their names hold. */
export function resolveServerSecrets(
  server: { name: string; env: Record<string, string>; headers: Record<string, string> },
  env: Record<string, string | undefined>,
): { env: Record<string, string>; headers: Record<string, string> } {
  return {
    env: resolveReferences(server.env, env, `mcp_servers.${server.name}.env`),
    headers: resolveReferences(server.headers, env, `mcp_servers.${server.name}.headers`, { credentialNames: isCredentialHeader }),
  };
}

/**
 * A server entry as an answer shows it (`config.set mcp_servers.<name>`): `env` and `headers` values
 * are secrets (a token, a key), so only their `${VAR}` references stay visible; any other text in them
 * becomes [REDACTED].
 */
export function withoutServerSecrets(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const entry = { ...(value as Record<string, unknown>) };
  for (const field of ['env', 'headers']) {
    const values = entry[field];
    if (values === null || typeof values !== 'object' || Array.isArray(values)) continue;
    entry[field] = Object.fromEntries(Object.entries(values).map(([name, v]) => [name, typeof v === 'string' ? onlyReferences(v) : REDACTED]));
  }
  return entry;
}

/** The text with everything but its `${VAR}` references replaced by [REDACTED]. */
function onlyReferences(text: string): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(REFERENCE)) {
    if (match.index > at) out += REDACTED;
    out += match[0];
    at = match.index + match[0].length;
  }
  return at < text.length ? out + REDACTED : out;
}
