// Edits to dependencies' code made while bundling (scripts/build.mjs), each for a measured start cost.
import { readFile } from 'node:fs/promises';

/**
 * A dependency's source edited as esbuild loads it: each `find` must occur exactly `count` times, so a
 * release whose code no longer reads this way fails the build (review the patch) instead of going slow.
 * `loader` is esbuild's for the edited source (`ts` for one of ours).
 */
export function sourcePatch(name, filter, edits, applies = () => true, loader = 'js') {
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
        return { contents: source, loader };
      });
    },
  };
}

/**
 * Ink's layout engine, yoga, ships its wasm as a base64 data: URL. Where `fetch` exists (Node ≥ 18) its
 * loader fetches that URL: Node then loads undici, compiles its HTTP parser and percent-decodes the
 * ~100 kB URL — 20-40 ms of a start before the first frame (CPU profile of `hermes`, see
 * scripts/bench/startup.ts). Without fetch it decodes the base64 itself. The two checks are patched to
 * take that path.
 */
export const yogaWithoutFetch = sourcePatch('yoga-without-fetch', /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/, [
  { find: '"function"!=typeof fetch', replace: '!0', count: 2 },
]);

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
