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
