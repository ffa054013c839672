import os from 'node:os';
import path from 'node:path';

/** `$HERMES_HOME`, default `~/.hermes`: config.yaml, .env, state.db, logs/, plugins/, skills/. */
export function hermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.HERMES_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(os.homedir(), '.hermes');
}

/**
 * The homes the approval gate judges against: `HOME` from `env` (the process environment merged over
 * `$HERMES_HOME/.env`), else the OS's idea of home. One place, so `approvals.check` and sessions agree.
 */
export function judgeHomes(home: string, env: NodeJS.ProcessEnv): { home: string; hermesHome: string } {
  return { home: env.HOME ?? os.homedir(), hermesHome: home };
}
