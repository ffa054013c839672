// Edits to dependencies' code made while bundling (scripts/build.mjs), each for a measured start cost.
import { readFile } from 'node:fs/promises';

const LOADERS = { '.ts': 'ts', '.mts': 'ts', '.tsx': 'tsx' };

/**
 * A dependency's source edited as esbuild loads it: each `find` must occur exactly `count` times, so a
 * release whose code no longer reads this way fails the build (review the patch) instead of going slow.
 */
export function sourcePatch(name, filter, edits, applies = () => true) {
  return {
    name,
    setup(b) {
      b.onLoad({ filter }, async (args) => {
        if (!applies(args.path)) return undefined;
        let source = await readFile(args.path, 'utf8');
        for (const { find, replace, count } of edits) {
          const found = source.split(find).length - 1;
          if (found !== count) throw new Error(`${args.path}: expected ${count} of ${JSON.stringify(find)}, found ${found}; review the ${name} patch in scripts/build.mjs`);
          source = source.replaceAll(find, () => replace);
        }
        return { contents: source, loader: LOADERS[args.path.slice(args.path.lastIndexOf('.'))] ?? 'js' };
      });
    },
  };
}

/**
 * string-width (Ink's text measure) builds `/^\p{RGI_Emoji}$/v` when it loads and runs it on every
 * non-ASCII grapheme: building it and compiling it at its first use cost ~25 ms of CPU before the
 * first frame (whose "⚕", "❯" and "─" are not ASCII). It is now built at the first grapheme that can
 * be an RGI emoji: one holding an Emoji character, and not a lone code point without
 * Emoji_Presentation (a lone code point is RGI only as a basic emoji, which has that property; with
 * U+FE0F it is two). The answer is the regex's in every case; only graphemes that cannot match skip it.
 */
export const stringWidthLazyEmoji = sourcePatch('string-width-lazy-emoji', /node_modules[\\/]string-width[\\/]index\.js$/, [
  {
    find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    replace: `let rgiEmojiRegex;
const emojiCharacterRegex = /\\p{Emoji}/u;
const emojiPresentationRegex = /^\\p{Emoji_Presentation}$/u;
const isRgiEmoji = (segment) =>
	emojiCharacterRegex.test(segment) &&
	(segment.length > (segment.codePointAt(0) > 0xFFFF ? 2 : 1) || emojiPresentationRegex.test(segment)) &&
	(rgiEmojiRegex ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(segment);`,
    count: 1,
  },
  { find: 'rgiEmojiRegex.test(segment)', replace: 'isRgiEmoji(segment)', count: 1 },
  // Ink's own string-width (8.x); an older copy nested under another package measures another way.
], (file) => !/node_modules[\\/].*node_modules[\\/]/.test(file));

/**
 * The TUI runs as one CommonJS bundle through V8's code cache (scripts/bundling/codeCache/), and
 * CommonJS has no top-level await. Ink's layout engine, yoga, awaits its wasm at the top of its
 * module: Emscripten's loader takes an `instantiateWasm` hook, and this patch adds a synchronous one
 * of its own (the module object is then ready when the loader returns, which index.js checks). It
 * decodes the base64 data: URL the wasm ships as itself: where `fetch` exists the loader would
 * fetch that URL, and Node then loads undici, compiles its HTTP parser and percent-decodes the
 * ~100 kB URL (20-40 ms of a start before the first frame).
 */
export const yogaSync = [
  sourcePatch('yoga-sync-instantiate', /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/, [
    {
      find: 'if(h.instantiateWasm)try{return h.instantiateWasm(d,',
      replace: 'if(h.instantiateSync){var inst=new WebAssembly.Instance(new WebAssembly.Module(wa()),d);a(inst);return inst.exports}if(h.instantiateWasm)try{return h.instantiateWasm(d,',
      count: 1,
    },
  ]),
  sourcePatch('yoga-sync-load', /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/, [
    {
      find: 'const Yoga = wrapAssembly(await loadYoga());',
      replace: `const yogaModule = { instantiateSync: true };
loadYoga(yogaModule);
if (!yogaModule.calledRun) throw new Error('yoga-layout did not start synchronously (see yogaSync in scripts/bundling/sourcePatches.mjs)');
const Yoga = wrapAssembly(yogaModule);`,
      count: 1,
    },
  ]),
];

/**
 * Ink's reconciler awaits React DevTools at its top when DEV=true. react-devtools-core is not
 * shipped (a build external), so that import could only fail; without top-level await the bundle can
 * be CommonJS (see yogaSync).
 */
export const inkWithoutDevtools = sourcePatch('ink-without-devtools', /ink[\\/]build[\\/]reconciler\.js$/, [
  { find: "        await import('./devtools.js');", replace: '        // React DevTools: not shipped with hermes (scripts/bundling/sourcePatches.mjs).', count: 1 },
  { find: '    ? await loadPackageJson()', replace: '    ? { name: undefined, version: undefined }', count: 1 },
]);
