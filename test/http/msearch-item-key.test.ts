/**
 * `_msearch`'s parsed-item cache key (http/msearch.ts itemKey): an item without parameters is keyed
 * by its body line alone; no two different (parameters, body) pairs share a key.
 */
import { describe, expect, it } from 'vitest';
import { itemKey } from '../../src/http/msearch.js';

describe('itemKey', () => {
  it('is the body line itself for an item without parameters', () => {
    const body = '{"query":{"match":{"text":"quick fox"}},"size":10}';
    expect(itemKey('{}', body)).toBe(body);
  });

  it('tells apart no body, an empty object body, parameters and their bodies', () => {
    const params = '{"routing":"r1"}';
    const pairs: Array<[string, string | null]> = [
      ['{}', null], ['{}', '{}'], ['{}', params], ['{}', '{"size":1}'],
      [params, null], [params, '{}'], [params, '{"size":1}'], ['{"routing":"r2"}', '{}'], ['{"preference":"_local"}', null],
    ];
    const keys = pairs.map(([p, b]) => itemKey(p, b));
    expect(new Set(keys).size).toBe(pairs.length);
  });
});
