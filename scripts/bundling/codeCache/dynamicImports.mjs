// Build step for bundles run through V8's code cache (runCached.ts): Node 20 loses the import()
// callback of every function in a script whose code came from the cache ("A dynamic import callback
// was not specified"), so each import() left in the bundle (those of packages kept external, e.g. tsx,
// or of Node builtins) calls a function the launcher hands in instead, whose import() is its own.
import { init, parse } from 'es-module-lexer';
import { sourcePatch } from '../sourcePatches.mjs';

/** What each import() becomes: as long as `import`, so the source map's columns stay right. */
export const DYNAMIC_IMPORT = '__hImp';

/** `source` with each dynamic `import(` made `__hImp(`; strings, templates, regexps and comments are left alone. */
export async function routeDynamicImports(source) {
  await init;
  if (new RegExp(`\\b${DYNAMIC_IMPORT}\\b`).test(source)) throw new Error(`the bundle already uses the name ${DYNAMIC_IMPORT}: choose another in dynamicImports.mjs`);
  const [imports] = parse(source);
  let out = '';
  let at = 0;
  for (const { d, ss } of imports) {
    if (d < 0) continue; // static import or import.meta: none in a CommonJS bundle but the lexer's own view
    if (source.slice(ss, ss + 6) !== 'import') throw new Error(`dynamic import at ${ss} does not start with "import"`);
    out += source.slice(at, ss) + DYNAMIC_IMPORT;
    at = ss + 6;
  }
  return out + source.slice(at);
}

/**
 * The plugin host imports plugins with an import() made by `new Function`, so that a test runner
 * rewriting import() in the code it loads cannot change it. In a cached bundle such an import() has no
 * callback (its fallback, vm's USE_MAIN_CONTEXT_DEFAULT_LOADER, prints an ExperimentalWarning on
 * every start with plugins): bundled, it is a plain import(), which routeDynamicImports then routes.
 */
export const pluginImportRouted = sourcePatch('plugin-import-routed', /packages[\\/]plugin-host[\\/]src[\\/]loader[\\/]importEntry\.ts$/, [
  { find: "new Function('specifier', 'return import(specifier)')", replace: '((specifier: string) => import(specifier))', count: 1 },
]);
