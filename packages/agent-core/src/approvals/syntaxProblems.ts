/**
 * What the grammar's tree alone does not say: text it could not read (ERROR/MISSING nodes), unusual
 * characters outside quotes, code bash runs that the grammar left inside a word or a heredoc, and
 * loops that never end.
 */
import type { SyntaxNode } from './bashParser.ts';

/** A piece of text hermes could not read as bash does, and its line (1-based). */
export interface Problem {
  text: string;
  line: number;
}

export function collectProblems(node: SyntaxNode, unreadable: Problem[], unusual: Problem[], embedded: Problem[]): void {
  const at = (text: string): Problem => ({ text: text.slice(0, 60), line: node.startPosition.row + 1 });
  // Bidirectional and invisible format characters reorder what a human reads (Trojan Source), comments included.
  if (node.type === 'comment' && /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/.test(node.text)) unusual.push(at(node.text));
  if (node.isError || node.isMissing) {
    unreadable.push(at(node.isMissing ? `missing ${node.type}` : node.text));
    if (node.isError && /[^\t\n\x20-\x7e]/.test(node.text)) unusual.push(at(node.text));
    return;
  }
  if (node.type === 'word' && /[^\t\n\x20-\x7e]/.test(node.text)) unusual.push(at(node.text));
  else if (/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(node.text) && node.childCount === 0) unusual.push(at(node.text));
  if (node.type === 'word') for (const code of codeIn(node.text.replace(/\\`/g, '`'))) embedded.push(at(code));
  // The grammar glues words across blanks after an empty `` `` ``: bash does not.
  if (node.type === 'concatenation' && node.children.some((c) => c.type === '``')) unreadable.push(at(node.text));
  // `` `echo \`cmd\`` ``: inside backticks, escaped backticks are a substitution of their own.
  if (node.type === 'command_substitution' && node.text.startsWith('`') && node.text.includes('\\`')) {
    embedded.push(at(node.text.slice(1, -1).replace(/\\`/g, '`')));
  }
  if (!node.hasError && !/[^\t\n\x20-\x7e]|`|\$\(/.test(node.text)) return;
  for (const child of node.children) collectProblems(child, unreadable, unusual, embedded);
}

/** The code in `` `…` `` and `$(…)` spans of a text (balanced parentheses, quotes not tracked). */
export function codeIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<!\\)`([^`]+)`/g)) out.push(m[1]!);
  for (let i = text.indexOf('$('); i >= 0; i = text.indexOf('$(', i + 2)) {
    // `$((` is arithmetic; `\$(` is a literal dollar.
    if (text[i + 2] === '(' || text[i - 1] === '\\') continue;
    let depth = 0;
    for (let k = i + 1; k < text.length; k += 1) {
      if (text[k] === '(') depth += 1;
      else if (text[k] === ')' && --depth === 0) {
        out.push(text.slice(i + 2, k));
        break;
      }
    }
  }
  return out;
}

/** `while true`, `while :`, `until false`, `for ((;;))`: a loop nothing in its condition ends. */
export function loopsForever(node: SyntaxNode): boolean {
  if (node.type === 'c_style_for_statement') return !node.childForFieldName('condition');
  const keyword = node.children[0]?.type;
  const condition = node.childrenForFieldName('condition').map((c) => c.text).join(' ').replace(/;\s*$/, '').trim();
  return keyword === 'until' ? /^(?:false|!\s*true|\[\[?\s*0\s*\]?\])$/.test(condition) : /^(?:true|:|\[\[?\s*1\s*\]?\]|\(\(\s*1\s*\)\)|sleep\s+\S+)$/.test(condition);
}

/** A loop body that starts a process in the background each time round (`… & done`). */
export function spawnsInBackground(body: SyntaxNode | null): boolean {
  return !!body && /(?:^|[^&|<>])&(?![&>])/.test(body.text.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, ''));
}
