/**
 * marked's lexer as every part of the renderer uses it (GitHub-flavoured), with one tokenizer made
 * cheaper and no different.
 *
 * Before a block becomes a paragraph, marked tries it as a setext heading (a line underlined with `=`
 * or `-`). Its regular expression walks the whole block one character at a time, each time checking
 * seven lookaheads for the start of another block. A model's paragraphs almost never have an
 * underline, yet that walk was a quarter of the lexer's time on a first reply (~10 ms of a 60 kB
 * reply in a fresh process). A setext heading needs an underline line (`\n`, up to three spaces,
 * `=`s or `-`s, blanks, the line's end) before the block's first blank line, since marked's heading
 * text cannot cross one. Where there is none, no setext heading can start here: the check below
 * says so at the cost of two simple scans of at most WINDOW characters. Where there is one, or the
 * block is longer than that, marked's own tokenizer decides.
 */
import { Lexer, Tokenizer, type Token, type Tokens } from 'marked';

/** A line that could underline a setext heading, with the newline before it. */
const UNDERLINE = /\n {0,3}(?:=+|-+)[ \t]*(?:\n|$)/;
/**
 * A line of blanks, with the newline before it: marked's heading text stops at `\n\s*?\n`, which
 * this is part of, so the block searched here is never shorter than the one marked reads.
 */
const BLANK_LINE = /\n[ \t]*\n/;

/**
 * How far ahead the check looks for the block's end. A block that runs on past it without a blank line
 * is left to marked: marked's own heading text also stops where another block starts (a heading, a
 * list), which this check does not know, so scanning on to a blank line far away could read the rest of
 * a long text at each such block.
 */
const WINDOW = 2048;

/** Whether a setext heading may start at the beginning of `src` (false: it certainly does not). */
export function mayStartSetextHeading(src: string): boolean {
  const head = src.length > WINDOW ? src.slice(0, WINDOW) : src;
  const blank = head.search(BLANK_LINE);
  if (blank >= 0) return UNDERLINE.test(head.slice(0, blank + 1));
  return src.length > WINDOW || UNDERLINE.test(src);
}

class RendererTokenizer extends Tokenizer {
  override lheading(src: string): Tokens.Heading | undefined {
    return mayStartSetextHeading(src) ? super.lheading(src) : undefined;
  }
}

/**
 * The block tokens of `text` (GitHub-flavoured markdown), as `Lexer.lex(text, { gfm: true })` gives them.
 * A tokenizer per call: marked points it at its lexer, which would otherwise stay reachable after.
 */
export function lexMarkdown(text: string): Token[] {
  return Lexer.lex(text, { gfm: true, tokenizer: new RendererTokenizer() });
}
