import { describe, expect, it } from 'vitest';
import { coerceObject, coerceValue } from './coerce.ts';

describe('coerceValue', () => {
  it.each([
    ['"42"', { type: 'integer' }, 42],
    ['" 7 "', { type: 'integer' }, 7],
    ['"4.5"', { type: 'integer' }, '4.5'],
    ['"4.5"', { type: 'number' }, 4.5],
    ['"abc"', { type: 'number' }, 'abc'],
    ['"true"', { type: 'boolean' }, true],
    ['"False"', { type: 'boolean' }, false],
    ['"maybe"', { type: 'boolean' }, 'maybe'],
    ['"null"', { type: ['string', 'null'] }, 'null'],
    ['"null"', { type: ['integer', 'null'] }, null],
    ['"[1, \\"2\\"]"', { type: 'array', items: { type: 'integer' } }, [1, 2]],
    ['"a.ts"', { type: 'array', items: { type: 'string' } }, ['a.ts']],
    ['"a.ts,b.ts"', { type: 'array', items: { type: 'string' } }, 'a.ts,b.ts'],
    ['5', { type: 'array', items: { type: 'string' } }, ['5']],
    ['5', { type: 'string' }, '5'],
    ['"{\\"n\\": \\"2\\"}"', { type: 'object', properties: { n: { type: 'integer' } } }, { n: 2 }],
    ['"x"', { enum: ['x'] }, 'x'],
  ])('coerces %s to the schema %j', (json, schema, expected) => {
    expect(coerceValue(JSON.parse(json), schema)).toEqual(expected);
  });

  it('coerces nested objects by their properties and array items', () => {
    const schema = {
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'string' }, done: { type: 'boolean' }, n: { type: 'integer' } } },
        },
      },
    };
    expect(coerceObject({ todos: '[{"id": 1, "done": "true", "n": "2"}]', other: '3' }, schema)).toEqual({
      todos: [{ id: '1', done: true, n: 2 }],
      other: '3',
    });
  });
});
