/**
 * The secrets this process knows, shared by everything that lets text out (tool results, the store,
 * the wire, logs, error messages). Process-wide because the secrets are: they come from the process
 * environment, which every part sees, and from `$HERMES_HOME/.env`, which the runtime adds once loaded.
 */
import { Redactor } from './redactor.ts';
import { isSecretName } from './secretNames.ts';

let current: Redactor | null = null;

/** Paths are not secrets (`PASSWORD_STORE_DIR`, `GIT_ASKPASS`): redacting them would garble every listing that shows them. */
const isPath = (value: string) => /^[/~]/.test(value);

/** Values of secret-named variables in `env` (paths aside). */
function secretValues(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (value && isSecretName(name) && !isPath(value) ? [value] : []));
}

/** Values of variables passed to commands by `terminal.env_passthrough`, whatever their names (paths aside). */
export function passedValues(passed: Record<string, string | undefined>): string[] {
  return Object.values(passed).flatMap((value) => (value && !isPath(value) ? [value] : []));
}

function redactor(): Redactor {
  current ??= new Redactor(secretValues(process.env));
  return current;
}

/**
 * Values under secret-named keys anywhere in a parsed config (`model.api_key`, an MCP server's
 * `env: {GITHUB_TOKEN: …}`, `password:`): config.yaml is not meant for secrets, but one put there is
 * still one (`config.get` must not hand it out).
 */
export function secretValuesInConfig(value: unknown, depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 16) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    typeof item === 'string' ? (isSecretName(key.toUpperCase()) && !isPath(item) ? [item] : []) : secretValuesInConfig(item, depth + 1),
  );
}

/**
 * Adds secrets: the secret-named variables of `env`, every value of `dotenv` (whatever its name:
 * `.env` is where secrets are kept), and `more` (e.g. from `secretValuesInConfig`).
 */
export function rememberSecrets(env: Record<string, string | undefined>, dotenv: Record<string, string> = {}, more: Iterable<string> = []): void {
  current = redactor().with([...secretValues(env), ...Object.values(dotenv), ...more]);
}

/** The secret values known now (longest first). */
export function knownSecrets(): readonly string[] {
  return redactor().knownValues;
}

export function redactSecrets(text: string): string {
  return redactor().redact(text);
}

/** Redacts every string inside a value (an event payload, a response). */
export function redactSecretsDeep<T>(value: T): T {
  return redactor().redactDeep(value);
}
