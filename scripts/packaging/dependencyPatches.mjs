// The bundles carry dependencies as they are in node_modules: the patches in patches/ (patch-package,
// run by `npm install`'s postinstall) must be applied there, or a package would ship the unpatched
// code without a word. A node_modules copied from elsewhere, or installed with --ignore-scripts, lacks them.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Throws, naming each patch and the fix, when a patch in `root`/patches is not applied to node_modules. */
export function checkDependencyPatches(root) {
  const dir = path.join(root, 'patches');
  const patches = readdirSync(dir).filter((name) => name.endsWith('.patch'));
  const missing = patches.filter((name) => {
    try {
      // Reverses cleanly exactly when the patch is in place.
      execFileSync('git', ['apply', '--check', '--reverse', path.join(dir, name)], { cwd: root, stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length) {
    throw new Error(`node_modules lacks ${missing.map((name) => `patches/${name}`).join(', ')}: run \`npx patch-package\` (npm install runs it) and pack again`);
  }
}
