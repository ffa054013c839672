import os from 'node:os';
import path from 'node:path';

/** `$HERMES_HOME`, default `~/.hermes`: config.yaml, .env, state.db, logs/, plugins/, skills/. */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HERMES_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.hermes');
}
