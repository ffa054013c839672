/**
 * The hermes version reported by `--version`, in `gateway.ready` and in `session.info`. Its one source
 * is the root package.json's `version`: scripts/build.mjs injects it into the bundles (an installed copy
 * has no repository to read); run from the TypeScript sources, it is read from that file.
 */
import { readFileSync } from 'node:fs';

declare const HERMES_BUILD_VERSION: string | undefined;

function sourceCheckoutVersion(): string {
  const manifest = new URL('../../../package.json', import.meta.url);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: unknown };
  if (typeof version !== 'string') throw new Error(`${manifest.pathname} has no "version"`);
  return version;
}

export const HERMES_VERSION: string = typeof HERMES_BUILD_VERSION === 'string' ? HERMES_BUILD_VERSION : sourceCheckoutVersion();
