// The packages a cached bundle keeps in files of their own (scripts/build.mjs, a target's `vendored`).
/**
 * Packages a cached bundle imports only with import() (the model providers' SDKs, at a session's first
 * request) are built apart, each into its own CommonJS file `vendor/<file>.cjs` beside the bundle, which
 * the launcher compiles through the code cache when the bundle first imports it (runCached.ts,
 * `modules`). Inside the one bundle they were 1 MB of its 3, which every start read, checked for ASCII
 * and copied into V8 before running a line: ~20 ms to gateway.ready on a 2-core machine
 * (docs/performance.md). A static import, or an import of a subpath (a second copy of part of the
 * package), stops the build: either would bring the package back into the start.
 */
export function vendoredExternal(packages) {
  const names = Object.keys(packages);
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return {
    name: 'vendored-external',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${escaped.join('|')})(/|$)`) }, (args) => {
        const name = names.find((n) => args.path === n || args.path.startsWith(`${n}/`));
        if (args.path !== name || args.kind !== 'dynamic-import') {
          return { errors: [{ text: `${args.path} is built on its own into vendor/ (scripts/build.mjs, vendored): import it only as import('${name}')` }] };
        }
        return { path: vendorSpecifier(packages[name]), external: true };
      });
    },
  };
}

/** Where a vendored package's file is, relative to its bundle (and how the bundle imports it). */
export const vendorSpecifier = (file) => `./vendor/${file}.cjs`;
