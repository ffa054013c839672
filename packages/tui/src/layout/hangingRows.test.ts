import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { hangingRows } from './hangingRows.ts';

const HELP = [
  'Tools & Skills',
  '  /mcp                List MCP servers: status, tools, error',
  '  /reload-mcp         Reload MCP servers from config.yaml (also /reload_mcp)',
].join('\n');

describe('hangingRows', () => {
  it('keeps what fits as it is', () => {
    expect(hangingRows(HELP, 80)).toBe(HELP);
  });

  it("wraps a long description under its own column, not under the names", () => {
    expect(hangingRows(HELP, 60).split('\n')).toEqual([
      'Tools & Skills',
      '  /mcp                List MCP servers: status, tools, error',
      '  /reload-mcp         Reload MCP servers from config.yaml',
      '                      (also /reload_mcp)',
    ]);
  });

  it('a line without a column keeps its indentation; every row fits the width', () => {
    const text = `    ${'word '.repeat(30).trim()}`;
    const rows = hangingRows(text, 40).split('\n');
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      expect(row.startsWith('    word')).toBe(true);
      expect(stringWidth(row)).toBeLessThanOrEqual(40);
    }
    expect(rows.join(' ').replace(/\s+/g, ' ').trim()).toBe('word '.repeat(30).trim());
  });

  it('too narrow for the column: the description under its name, indented; never wider than the screen', () => {
    expect(hangingRows(HELP, 30).split('\n')).toEqual([
      'Tools & Skills',
      '  /mcp',
      '      List MCP servers:',
      '      status, tools, error',
      '  /reload-mcp',
      '      Reload MCP servers from',
      '      config.yaml (also',
      '      /reload_mcp)',
    ]);
    for (const width of [5, 12, 20, 30, 45]) {
      const rows = hangingRows(HELP, width).split('\n');
      for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(width);
      // Nothing lost or reordered (a word longer than a row is cut, so blanks are left out of the comparison).
      expect(rows.join('').replace(/\s+/g, '')).toBe(HELP.replace(/\s+/g, ''));
    }
  });

  it('measures wide characters by their cells', () => {
    const rows = hangingRows('  /数据库      查询数据库中的会话 和 消息 以及 其他 很多 内容 还有 更多', 40).split('\n');
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(40);
    expect(rows[1]!.startsWith(' '.repeat(stringWidth('  /数据库      ')))).toBe(true);
  });
});
