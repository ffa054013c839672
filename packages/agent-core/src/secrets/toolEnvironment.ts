/**
 * The environment tool processes run with: hermes's own, minus the providers' API keys and minus every
 * variable named in `$HERMES_HOME/.env`, so `env` or `printenv` in a command cannot reveal them.
 * `terminal.env_passthrough` names variables a user wants commands to have anyway.
 */
import { isProviderKeyVar } from './secretNames.ts';

export interface ToolEnvironmentOptions {
  /** Variable names in `$HERMES_HOME/.env`. */
  dotenvNames: Iterable<string>;
  /** `terminal.env_passthrough`: passed even if they would be withheld. */
  passthrough?: Iterable<string>;
  /** Where passthrough values not in `env` come from (the merged environment, `.env` included). */
  values?: Record<string, string | undefined>;
}

export function toolEnvironment(env: Record<string, string | undefined>, options: ToolEnvironmentOptions): Record<string, string> {
  const withheld = new Set(options.dotenvNames);
  const passed = new Set(options.passthrough ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if ((isProviderKeyVar(name) || withheld.has(name)) && !passed.has(name)) continue;
    out[name] = value;
  }
  for (const name of passed) {
    const value = env[name] ?? options.values?.[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
