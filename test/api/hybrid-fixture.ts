/**
 * The small fixture the hybrid search tests (rrf, linear) share: seven titles with a keyword tag and
 * a learned-sparse vector each, loaded into one index per shard count so 1 and 3 shards compare.
 */
import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import { seed } from './es.js';

export const HYBRID_DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'apple apple banana', tag: 'a', ml: { tokens: { fruit: 1 } } }],
  ['2', { title: 'apple', tag: 'b', ml: { tokens: { fruit: 3, red: 1 } } }],
  ['3', { title: 'banana', tag: 'a', ml: { tokens: { fruit: 2 } } }],
  ['4', { title: 'cherry apple', tag: 'b', ml: { tokens: { red: 2 } } }],
  ['5', { title: 'durian', tag: 'a', ml: { tokens: { fruit: 0.5 } } }],
  ['6', { title: 'kiwi banana apple fruit salad', tag: 'b', ml: { tokens: { green: 1 } } }],
  ['7', { title: 'nothing here', tag: 'a', ml: { tokens: { stone: 1 } } }],
];
const MAPPINGS = { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, 'ml.tokens': { type: 'sparse_vector' } } };

/** Creates `<one>` with 1 shard and `<three>` with 3, both holding HYBRID_DOCS. */
export async function seedHybridIndices(t: TestApp, one: string, three: string): Promise<void> {
  for (const [name, shards] of [[one, 1], [three, 3]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, name, HYBRID_DOCS);
  }
}
