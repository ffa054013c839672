import { describe, expect, it } from 'vitest';
import { parseSlash } from './slash.ts';

describe('parseSlash', () => {
  it.each([
    ['/help', { name: 'help', args: '' }],
    ['/model gpt-4o --global', { name: 'model', args: 'gpt-4o --global' }],
    ['   /Status', { name: 'status', args: '' }],
    ['/TITLE  My Title  ', { name: 'title', args: 'My Title' }],
    ['/save md\nnotes', { name: 'save', args: 'md\nnotes' }],
    ['/reload-plugins', { name: 'reload-plugins', args: '' }],
  ])('%j → %j', (text, parsed) => {
    expect(parseSlash(text)).toEqual(parsed);
  });

  it.each(['/', '  /  ', '/ help', 'help', '', 'hello /help', '//x', '/usr/bin/env'])('%j is not a command', (text) => {
    expect(parseSlash(text)).toBeNull();
  });
});
