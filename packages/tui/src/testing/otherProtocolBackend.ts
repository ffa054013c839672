/**
 * The real backend as another install of hermes would ship it: built from these sources exactly as
 * scripts/build.mjs builds it, but speaking protocol PROTOCOL_VERSION + 1. With `checksClient: false`
 * it is also built without its own check of the client's protocol, as a backend from before that
 * check was added: the TUI's check of `gateway.ready.protocol` is then the one that must refuse it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '@hermes/rpc-server/protocol';
import { buildTargets } from '../../../../scripts/build.mjs';
import { sourcePatch } from '../../../../scripts/bundling/sourcePatches.mjs';
import { tempDir } from '../../../../scripts/testing/tempDirs.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export const OTHER_PROTOCOL = PROTOCOL_VERSION + 1;

/** Builds it into a temp dir; gives its entry, for `HERMES_RPC_ENTRY`. */
export async function otherProtocolBackend(options: { checksClient: boolean }): Promise<string> {
  const dir = tempDir('hermes-other-protocol-');
  const plugins = [
    sourcePatch('other-protocol', /rpc-server[\\/]src[\\/]protocol[\\/]versions\.ts$/, [{ find: `export const PROTOCOL_VERSION = ${PROTOCOL_VERSION};`, replace: `export const PROTOCOL_VERSION = ${OTHER_PROTOCOL};`, count: 1 }]),
  ];
  if (!options.checksClient) {
    plugins.push(
      sourcePatch('no-client-check', /rpc-server[\\/]src[\\/]main\.ts$/, [{ find: 'clientProtocolProblem(process.env[CLIENT_PROTOCOL_ENV])', replace: 'undefined', count: 1 }]),
    );
  }
  await buildTargets(['(backend)'], { plugins, sourcemap: false }, () => path.join(dir, 'dist'));
  // An ES module package whose bare imports (better-sqlite3, tsx) resolve from the repository's node_modules.
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return path.join(dir, 'dist', 'main.cjs');
}
