/** Inline markdown (emphasis, code spans, links) as one styled string; the block layer wraps it. */
import chalk from 'chalk';
import type { Token, Tokens } from 'marked';
import { hyperlink, linkableUrl } from './hyperlinks.ts';

/** Whether links render as OSC 8 hyperlinks; set by `withHyperlinks` around one synchronous render. */
let hyperlinks = false;

/** Runs `render` with links as OSC 8 hyperlinks (`on`) or as `text (url)`. */
export function withHyperlinks<T>(on: boolean, render: () => T): T {
  const before = hyperlinks;
  hyperlinks = on;
  try {
    return render();
  } finally {
    hyperlinks = before;
  }
}

/**
 * A link as an OSC 8 hyperlink where the terminal draws them (see `withHyperlinks`), else as
 * `text (url)`: plain and readable in every terminal, and the URL stays copyable.
 */
function link(token: Tokens.Link): string {
  const text = inlineText(token.tokens);
  const plain = token.text.trim();
  const href = token.href;
  if (hyperlinks && href && linkableUrl(href)) return hyperlink(chalk.blue.underline(text || href), href);
  if (!href || plain === href || `mailto:${plain}` === href) return chalk.blue.underline(text || href);
  return `${chalk.blue.underline(text)} ${chalk.dim(`(${href})`)}`;
}

export function inlineText(tokens: readonly Token[] | undefined): string {
  let out = '';
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out += chalk.bold(inlineText((token as Tokens.Strong).tokens));
        break;
      case 'em':
        out += chalk.italic(inlineText((token as Tokens.Em).tokens));
        break;
      case 'del':
        out += chalk.strikethrough(inlineText((token as Tokens.Del).tokens));
        break;
      case 'codespan':
        out += chalk.cyan((token as Tokens.Codespan).text);
        break;
      case 'link':
        out += link(token as Tokens.Link);
        break;
      case 'image': {
        const image = token as Tokens.Image;
        out += `${chalk.dim('[image]')} ${image.text}${image.href ? ` ${chalk.dim(`(${image.href})`)}` : ''}`;
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'text':
        // A text token inside a tight list item carries its own inline tokens.
        out += 'tokens' in token && token.tokens ? inlineText(token.tokens) : (token as Tokens.Text).text;
        break;
      case 'escape':
        out += (token as Tokens.Escape).text;
        break;
      default:
        // html and anything newer marked may add: shown as written.
        out += token.raw;
    }
  }
  return out;
}
