// Build step for the CommonJS bundles (scripts/build.mjs): one namespace object per Node builtin.
import { isBuiltin } from 'node:module';

/**
 * What each `__toESM(require("<builtin>")…)` call becomes: as long as `__toESM`, so the source map's
 * columns stay right.
 */
export const BUILTIN_NAMESPACE = '__bltNS';

/**
 * esbuild gives each default or namespace import of a CommonJS module (`import fs from 'node:fs'`) in
 * a CommonJS bundle a namespace object of its own, made by copying every property of the module onto a
 * new object. The backend made 102 of them at each start, node:path's 48 times and node:fs's 30 (~8 ms
 * on a 2-core machine). For a Node builtin one shared object is the same: a builtin's exports do not
 * come and go, the bundle never writes to a namespace, and a builtin has no `__esModule`, so the mode
 * argument makes no difference. Other modules keep their own copies (a module still loading, in a
 * require cycle, may add exports after a first import).
 */
export function shareBuiltinNamespaces(source) {
  if (source.includes(BUILTIN_NAMESPACE)) throw new Error(`the bundle already uses the name ${BUILTIN_NAMESPACE}: choose another in builtinNamespaces.mjs`);
  let shared = 0;
  const out = source.replace(/__toESM\(require\("([^"]+)"\)/g, (call, specifier) => {
    if (!isBuiltin(specifier)) return call;
    shared += 1;
    return call.replace('__toESM', BUILTIN_NAMESPACE);
  });
  if (shared === 0) return source;
  // A function declaration, hoisted: callable from the first line. Added after the mapped code, before
  // the source map's comment, so no position moves.
  const helper = `function ${BUILTIN_NAMESPACE}(mod){const made=${BUILTIN_NAMESPACE}.made??=new Map();let ns=made.get(mod);if(ns===void 0)made.set(mod,ns=__toESM(mod,1));return ns}\n`;
  const mapComment = out.lastIndexOf('\n//# sourceMappingURL=');
  return mapComment < 0 ? `${out}\n${helper}` : `${out.slice(0, mapComment + 1)}${helper}${out.slice(mapComment + 1)}`;
}
