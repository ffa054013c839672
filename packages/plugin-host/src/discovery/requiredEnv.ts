import type { RequiredEnv } from './manifest.ts';

/**
 * The manifest's `requires_env` entries set neither in the process environment nor in
 * `$HERMES_HOME/.env` (an empty value counts as unset). The plugin still loads and sees this list
 * (`ctx.missingEnv`): the seed lets it degrade or refuse.
 */
export function missingEnv(required: readonly RequiredEnv[], env: Record<string, string | undefined>, dotenv: Record<string, string>): RequiredEnv[] {
  return required.filter(({ name }) => !(env[name] ?? dotenv[name])?.trim());
}

/** `NAME (description), OTHER` for listings. */
export function describeMissingEnv(missing: readonly RequiredEnv[]): string {
  return missing.map((m) => (m.description ? `${m.name} (${m.description})` : m.name)).join(', ');
}
