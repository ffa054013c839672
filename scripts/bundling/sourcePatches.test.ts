/**
 * The string-width patch (bundling/sourcePatches.mjs) must measure exactly as string-width does: the
 * patched module, bundled as the build bundles it, against the package itself, over every emoji
 * character alone, with U+FE0F and with a skin tone, keycaps, flags, ZWJ and tag sequences, and text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/tempDirs.ts';
import { stringWidthLazyEmoji } from './sourcePatches.mjs';

async function patchedStringWidth(): Promise<(text: string) => number> {
  const dir = tempDir('hermes-string-width-');
  const entry = join(dir, 'entry.js');
  writeFileSync(entry, "export { default } from 'string-width';\n");
  const outfile = join(dir, 'out.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, nodePaths: [join(process.cwd(), 'node_modules')], plugins: [stringWidthLazyEmoji], logLevel: 'silent' });
  // The patch applied (its filter matched the package the bundle took): else this compares string-width with itself.
  expect(readFileSync(outfile, 'utf8')).toContain('isRgiEmoji(segment)');
  return ((await import(pathToFileURL(outfile).href)) as { default: (text: string) => number }).default;
}

function samples(): string[] {
  const emoji = /\p{Emoji}/u;
  const chars: string[] = [];
  for (let cp = 0xa0; cp <= 0x10ffff; cp++) if ((cp < 0xd800 || cp > 0xdfff) && emoji.test(String.fromCodePoint(cp))) chars.push(String.fromCodePoint(cp));
  const tones = ['\u{1F3FB}', '\u{1F3FF}'];
  const out = [...chars, ...chars.map((c) => `${c}\uFE0F`), ...chars.flatMap((c) => tones.map((t) => c + t))];
  for (const key of '#*0123456789') out.push(`${key}\u20E3`, `${key}\uFE0F\u20E3`);
  const flag = (code: string) => [...code].map((c) => String.fromCodePoint(0x1f1e6 + c.charCodeAt(0) - 65)).join('');
  out.push(flag('US'), flag('JP'), flag('ZZ'), '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}');
  out.push('\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', '\u{1F3F3}\uFE0F\u200D\u{1F308}', '\u{1F9D1}\u{1F3FD}\u200D\u{1F4BB}', '\u2764\uFE0F\u200D\u{1F525}');
  out.push('⚕ hermes is starting…', '❯ Ask hermes anything · !cmd', '────', '中文字符 and ｆｕｌｌ', '한국어 각', 'é e\u0301 ﷽', '\u{1F600} grin', 'plain ascii');
  return out;
}

describe('string-width, patched to build its RGI emoji regex on demand', () => {
  it('measures every emoji sequence and text as the package does', async () => {
    const patched = await patchedStringWidth();
    const texts = samples();
    expect(texts.length).toBeGreaterThan(4000);
    const differing = texts.filter((text) => patched(text) !== stringWidth(text)).map((text) => [text, patched(text), stringWidth(text)]);
    expect(differing).toEqual([]);
  });
});
