import { describe, expect, it } from 'vitest';
import { describeDetails, parseDetailsArgs } from './detailsMode.ts';

describe('parseDetailsArgs', () => {
  it('takes a section and a mode in either order', () => {
    expect(parseDetailsArgs('tools expanded')).toEqual({ sections: ['tools'], mode: 'expanded' });
    expect(parseDetailsArgs('hidden thinking')).toEqual({ sections: ['thinking'], mode: 'hidden' });
  });
  it('a mode alone sets every section; nothing only asks', () => {
    expect(parseDetailsArgs('collapsed')).toEqual({ sections: ['thinking', 'tools'], mode: 'collapsed' });
    expect(parseDetailsArgs('')).toEqual({ sections: ['thinking', 'tools'] });
  });
  it('names what it accepts for a word it does not know', () => {
    expect(parseDetailsArgs('tools loud')).toEqual({ error: expect.stringContaining('usage: /details [thinking|tools] [hidden|collapsed|expanded]') });
  });
  it('describes the modes', () => {
    expect(describeDetails({ thinking: 'hidden', tools: 'expanded' })).toBe('details: thinking hidden · tools expanded');
  });
});
