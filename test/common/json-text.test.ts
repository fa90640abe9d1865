import { describe, expect, it } from 'vitest';
import { JsonText, stringifyWithText } from '../../src/common/json-text.js';

describe('stringifyWithText', () => {
  it('writes plain data as JSON.stringify does', () => {
    const values: unknown[] = [
      null, true, 0, -0, 1.5, 1e21, NaN, Infinity, 'a"\u0000\n\u2028', [], {}, [1, undefined, () => 1, null],
      { a: undefined, b: 1, 'c"': [{ d: 'e' }], f: () => 1, 2: 'two' }, { meta: { nested: [[[]]] } },
    ];
    for (const v of values) expect(stringifyWithText(v)).toBe(JSON.stringify(v));
  });

  it('splices JsonText in as its text', () => {
    expect(stringifyWithText({ hits: [new JsonText('{"_id":"1","_source":{"x":1.0}}')], max_score: new JsonText('1.2039728') }))
      .toBe('{"hits":[{"_id":"1","_source":{"x":1.0}}],"max_score":1.2039728}');
  });
});
