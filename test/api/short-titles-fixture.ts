import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { seed } from './es.js';

/**
 * Six short titled documents whose BM25 statistics are easy to work out by hand: the fixture of the
 * term-level and prefix query tests, which check exact scores against es.ts's `bm25`.
 */
export const SHORT_TITLES: ReadonlyArray<readonly [string, Readonly<Record<string, unknown>>]> = [
  ['1', { title: 'The quick brown fox', tag: 'animal', price: 10 }],
  ['2', { title: 'Quick brown foxes leap', tag: 'animal', price: 20 }],
  ['3', { title: 'A quick movement of the enemy', tag: 'war', price: 30 }],
  ['4', { title: 'Brown bread and butter', tag: 'food', price: 40 }],
  ['5', { title: 'Quickly brewed coffee', tag: 'food', price: 50 }],
  ['6', { title: 'The lazy brown dog', tag: 'animal', price: 60 }],
];

/** title lengths 4, 4, 6, 4, 3, 4 (standard analyzer) → avgdl 25/6 over 6 docs. */
export const SHORT_TITLE_STATS = { docCount: 6, avgdl: 25 / 6 };

/** `books` (1 shard) and `books3` (3 shards) holding `docs`, title text, tag keyword, price long, and `extra` properties. */
export async function createShortTitleIndices(t: TestApp, docs: Array<[string, Record<string, unknown>]>, extra: Record<string, unknown> = {}): Promise<void> {
  for (const [index, shards] of [['books', 1], ['books3', 3]] as const) {
    await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { title: { type: 'text' }, tag: { type: 'keyword' }, price: { type: 'long' }, ...extra } },
    });
    await seed(t, index, docs);
  }
}

/** The short titles as `seed` takes them (fresh objects). */
export function shortTitleDocs(): Array<[string, Record<string, unknown>]> {
  return SHORT_TITLES.map(([id, d]) => [id, { ...d }]);
}

/** A test file's app over `books` and `books3` holding the short titles, made in beforeAll and closed in afterAll. */
export function shortTitleApp(): () => TestApp {
  let t: TestApp | null = null;
  beforeAll(async () => {
    t = await createTestApp();
    await createShortTitleIndices(t, shortTitleDocs());
  });
  afterAll(async () => t?.close());
  return () => t!;
}
