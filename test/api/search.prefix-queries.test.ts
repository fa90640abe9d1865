/**
 * Queries whose last term is a prefix, on ordinary text fields:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-match-bool-prefix-query.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-match-query-phrase-prefix.html
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-multi-match-query.html
 * (es-api.md §3.5). ES builds them in MatchQueryParser: `match_bool_prefix` is a bool of term
 * queries with a constant-score prefix query for the last term; `match_phrase_prefix` a phrase whose
 * last position is the first `max_expansions` terms with that prefix.
 */
import { describe, expect, it } from 'vitest';
import type { TestResponse } from '../support/test-app.js';
import { bm25, ids, queryRunner, scores } from './es.js';
import { shortTitleApp, SHORT_TITLE_STATS } from './short-titles-fixture.js';

const app = shortTitleApp();
const TITLE = SHORT_TITLE_STATS;

const { search, q, hitIds } = queryRunner(app);

function expectShardFailure(res: TestResponse, reason: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('search_phase_execution_exception');
  expect(res.body.error.root_cause).toEqual([{ type: 'query_shard_exception', reason, index_uuid: expect.any(String), index: 'books' }]);
}

function expectParsingError(res: TestResponse, type: string, reason: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe(type);
  expect(res.body.error.reason).toBe(reason);
  expect(res.body.error.root_cause[0]).toMatchObject({ type, reason });
}

describe('match_bool_prefix', () => {
  it('is a bool of the terms, the last one a constant-score prefix', async () => {
    const res = await q({ match_bool_prefix: { title: 'quick brown f' } });
    expect(new Set(ids(res))).toEqual(new Set(['1', '2', '3', '4', '6']));
    const term = (docFreq: number, dl: number) => bm25({ ...TITLE, docFreq, freq: 1, dl });
    const s = scores(res);
    expect(s['1']).toBeCloseTo(term(3, 4) + term(4, 4) + 1, 5);
    expect(s['3']).toBeCloseTo(term(3, 6), 5);
    expect(s['4']).toBeCloseTo(term(4, 4), 5);
    expect(ids(res).slice(0, 2)).toEqual(['1', '2']);
  });

  it('the short form and the long form are the same query', async () => {
    expect(await hitIds({ match_bool_prefix: { title: { query: 'quick brown f' } } })).toEqual(await hitIds({ match_bool_prefix: { title: 'quick brown f' } }));
  });

  it('a single word is a prefix: "qui" finds "quick" and "quickly" with score 1 × boost', async () => {
    const res = await q({ match_bool_prefix: { title: { query: 'qui', boost: 2 } } });
    expect(ids(res)).toEqual(['1', '2', '3', '5']);
    expect(scores(res)).toEqual({ 1: 2, 2: 2, 3: 2, 5: 2 });
  });

  it('text after the last word makes it a whole word (a term, not a prefix)', async () => {
    expect(await hitIds({ match_bool_prefix: { title: 'quick bro' } })).toEqual(['1', '2', '4', '6', '3']);
    expect(await hitIds({ match_bool_prefix: { title: 'quick bro ' } })).toEqual(['1', '2', '3']);
    expect(await hitIds({ match_bool_prefix: { title: 'qui.' } })).toEqual([]);
  });

  it('operator "and" requires every term and the prefix', async () => {
    expect(await hitIds({ match_bool_prefix: { title: { query: 'quick brown f', operator: 'and' } } })).toEqual(['1', '2']);
    expect(await hitIds({ match_bool_prefix: { title: { query: 'brown br', operator: 'AND' } } })).toEqual(['1', '2', '4', '6']);
    expect(await hitIds({ match_bool_prefix: { title: { query: 'brown bu', operator: 'AND' } } })).toEqual(['4']);
  });

  it('minimum_should_match counts the prefix clause too', async () => {
    // quick: 1 2 3 · brown: 1 2 4 6 · b*: 1 2 4 5 6
    expect(new Set(await hitIds({ match_bool_prefix: { title: { query: 'quick brown b', minimum_should_match: 2 } } })))
      .toEqual(new Set(['1', '2', '4', '6']));
    expect(await hitIds({ match_bool_prefix: { title: { query: 'quick brown b', minimum_should_match: '100%' } } })).toEqual(['1', '2']);
  });

  it('fuzziness applies to every term but the last', async () => {
    // "brwn" is one edit from "brown"; the prefix "quikc" matches nothing.
    expect(await hitIds({ match_bool_prefix: { title: { query: 'brwn quikc', fuzziness: 'AUTO' } } })).toEqual(['1', '2', '4', '6']);
    expect(new Set(await hitIds({ match_bool_prefix: { title: { query: 'quikc brwn', fuzziness: 'AUTO' } } }))).toEqual(new Set(['1', '2', '3']));
    expect(new Set(await hitIds({ match_bool_prefix: { title: { query: 'brwn quic', fuzziness: 1 } } }))).toEqual(new Set(['1', '2', '3', '4', '5', '6']));
    // No transpositions: "quikc" is two edits from "quick".
    expect(await hitIds({ match_bool_prefix: { title: { query: 'quikc zz', fuzziness: 1, fuzzy_transpositions: false } } })).toEqual([]);
    // prefix_length: the first characters must match exactly.
    expect(await hitIds({ match_bool_prefix: { title: { query: 'bruwn zz', fuzziness: 1, prefix_length: 3 } } })).toEqual([]);
    expect(new Set(await hitIds({ match_bool_prefix: { title: { query: 'bruwn zz', fuzziness: 1, prefix_length: 2 } } }))).toEqual(new Set(['1', '2', '4', '6']));
  });

  it('a keyword field takes the whole text as one prefix; a number field as its exact value', async () => {
    expect(await hitIds({ match_bool_prefix: { tag: 'ani' } })).toEqual(['1', '2', '6']);
    expect(await hitIds({ match_bool_prefix: { price: '20' } })).toEqual(['2']);
    expectShardFailure(await search({ query: { match_bool_prefix: { price: 'abc' } } }), 'failed to create query: For input string: "abc"');
  });

  it('rejects what ES rejects', async () => {
    expectParsingError(await search({ query: { match_bool_prefix: { title: { query: 'x', lenient: true } } } }),
      'parsing_exception', '[match_bool_prefix] query does not support [lenient]');
    expectParsingError(await search({ query: { match_bool_prefix: { title: { query: 'x', zero_terms_query: 'all' } } } }),
      'parsing_exception', '[match_bool_prefix] query does not support [zero_terms_query]');
    expectParsingError(await search({ query: { match_bool_prefix: { title: { operator: 'or' } } } }),
      'illegal_argument_exception', '[match_bool_prefix] requires query value');
    expectParsingError(await search({ query: { match_bool_prefix: { title: { query: 'x', max_expansions: 0 } } } }),
      'illegal_argument_exception', '[match_bool_prefix] requires maxExpansions to be positive.');
    expectParsingError(await search({ query: { match_bool_prefix: { title: { query: 'x', prefix_length: -1 } } } }),
      'illegal_argument_exception', '[match_bool_prefix] requires prefix length to be non-negative.');
    expectShardFailure(await search({ query: { match_bool_prefix: { title: { query: 'x', analyzer: 'nope' } } } }),
      '[match_bool_prefix] analyzer [nope] not found');
  });
});

describe('match_phrase_prefix', () => {
  it('matches the phrase with any completion of the last word', async () => {
    expect(await hitIds({ match_phrase_prefix: { title: 'quick brown f' } })).toEqual(['1', '2']);
    expect(await hitIds({ match_phrase_prefix: { title: 'brown fox' } })).toEqual(['1', '2']);
    expect(await hitIds({ match_phrase_prefix: { title: 'brown b' } })).toEqual(['4']);
    expect(await hitIds({ match_phrase_prefix: { title: 'fox quick' } })).toEqual([]);
  });

  it('max_expansions keeps the first terms of the prefix in term order (0 keeps one)', async () => {
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'quick brown f', max_expansions: 1 } } })).toEqual(['1']); // "fox" < "foxes"
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'quick brown f', max_expansions: 0 } } })).toEqual(['1']);
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'quic', max_expansions: 1 } } })).toEqual(['1', '2', '3']);
  });

  it('slop lets the phrase stretch', async () => {
    expect(await hitIds({ match_phrase_prefix: { title: 'quick fo' } })).toEqual([]);
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'quick fo', slop: 1 } } })).toEqual(['1', '2']);
  });

  it('one word is the disjunction of its expansions, each scored as a term', async () => {
    const res = await q({ match_phrase_prefix: { title: 'quick' } });
    expect(ids(res)).toEqual(['5', '1', '2', '3']);
    expect(scores(res)['5']).toBeCloseTo(bm25({ ...TITLE, docFreq: 1, freq: 1, dl: 3 }), 5);
    expect(scores(res)['1']).toBeCloseTo(bm25({ ...TITLE, docFreq: 3, freq: 1, dl: 4 }), 5);
  });

  it('zero_terms_query decides what a query analysed to nothing matches', async () => {
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'the', analyzer: 'stop' } } })).toEqual([]);
    expect(await hitIds({ match_phrase_prefix: { title: { query: 'the', analyzer: 'stop', zero_terms_query: 'all' } } })).toHaveLength(6);
  });

  it('only text fields take phrase prefixes', async () => {
    expectShardFailure(await search({ query: { match_phrase_prefix: { tag: 'ani' } } }),
      'failed to create query: Can only use phrase prefix queries on text fields - not on [tag] which is of type [keyword]');
    expectShardFailure(await search({ query: { match_phrase_prefix: { price: '20' } } }),
      'failed to create query: Can only use phrase prefix queries on text fields - not on [price] which is of type [long]');
  });

  it('rejects what ES rejects', async () => {
    expectParsingError(await search({ query: { match_phrase_prefix: { title: { query: 'x', lenient: true } } } }),
      'parsing_exception', '[match_phrase_prefix] query does not support [lenient]');
    expectParsingError(await search({ query: { match_phrase_prefix: { title: { query: 'x', fuzziness: 1 } } } }),
      'parsing_exception', '[match_phrase_prefix] query does not support [fuzziness]');
    expectParsingError(await search({ query: { match_phrase_prefix: { title: { query: 'x', slop: -1 } } } }),
      'illegal_argument_exception', 'No negative slop allowed.');
    expectParsingError(await search({ query: { match_phrase_prefix: { title: { query: 'x', max_expansions: -1 } } } }),
      'illegal_argument_exception', 'No negative maxExpansions allowed.');
    expectParsingError(await search({ query: { match_phrase_prefix: { title: { slop: 1 } } } }),
      'illegal_argument_exception', '[match_phrase_prefix] requires query value');
  });
});

describe('multi_match bool_prefix and phrase_prefix', () => {
  it('bool_prefix sums match_bool_prefix over the fields (most_fields)', async () => {
    const title = scores(await q({ match_bool_prefix: { title: 'brown an' } }));
    const tag = scores(await q({ match_bool_prefix: { tag: 'brown an' } }));
    const res = await q({ multi_match: { query: 'brown an', fields: ['title^2', 'tag'], type: 'bool_prefix' } });
    const expected: Record<string, number> = {};
    for (const id of new Set([...Object.keys(title), ...Object.keys(tag)])) expected[id] = 2 * (title[id] ?? 0) + (tag[id] ?? 0);
    expect(Object.keys(scores(res)).sort()).toEqual(Object.keys(expected).sort());
    for (const [id, s] of Object.entries(expected)) expect(scores(res)[id]).toBeCloseTo(s, 5);
  });

  it('bool_prefix takes operator, minimum_should_match and fuzziness per field', async () => {
    expect(await hitIds({ multi_match: { query: 'quick brown f', fields: ['title'], type: 'bool_prefix', operator: 'and' } })).toEqual(['1', '2']);
    expect(new Set(await hitIds({ multi_match: { query: 'brwn quic', fields: ['title'], type: 'bool_prefix', fuzziness: 'AUTO' } })))
      .toEqual(new Set(['1', '2', '3', '4', '5', '6']));
    expect(await hitIds({ multi_match: { query: 'quick brown b', fields: ['title'], type: 'bool_prefix', minimum_should_match: '100%' } })).toEqual(['1', '2']);
  });

  it('phrase_prefix is the best field\'s match_phrase_prefix (dis_max)', async () => {
    const res = await q({ multi_match: { query: 'brown b', fields: ['title', 'tag'], type: 'phrase_prefix', lenient: true } });
    expect(ids(res)).toEqual(['4']);
    expect(scores(res)['4']).toBeCloseTo(scores(await q({ match_phrase_prefix: { title: 'brown b' } }))['4'], 5);
  });

  it('phrase_prefix fails on a keyword field unless lenient', async () => {
    expectShardFailure(await search({ query: { multi_match: { query: 'ani', fields: ['title', 'tag'], type: 'phrase_prefix' } } }),
      'failed to create query: Can only use phrase prefix queries on text fields - not on [tag] which is of type [keyword]');
    expect(await hitIds({ multi_match: { query: 'ani', fields: ['title', 'tag'], type: 'phrase_prefix', lenient: true } })).toEqual([]);
  });

  it('rejects what ES rejects', async () => {
    expectParsingError(await search({ query: { multi_match: { query: 'x', fields: ['title'], type: 'phrase_prefix', fuzziness: 'AUTO' } } }),
      'parsing_exception', 'Fuzziness not allowed for type [phrase_prefix]');
    expectParsingError(await search({ query: { multi_match: { query: 'x', fields: ['title'], type: 'bool_prefix', slop: 2 } } }),
      'parsing_exception', '[slop] not allowed for type [bool_prefix]');
    expectParsingError(await search({ query: { multi_match: { fields: ['title'], type: 'bool_prefix' } } }),
      'parsing_exception', 'No text specified for multi_match query');
    expectParsingError(await search({ query: { multi_match: { query: 'x', type: 'prefix' } } }),
      'parse_exception', 'failed to parse [multi_match] query type [prefix]. unknown type.');
    expectParsingError(await search({ query: { multi_match: { query: 'x', type: 'phrase_prefix', max_expansions: 0 } } }),
      'illegal_argument_exception', 'Max expansions must be strictly great than zero.');
    expectShardFailure(await search({ query: { multi_match: { query: 'x', fields: ['title'], type: 'bool_prefix', analyzer: 'nope' } } }),
      '[multi_match] analyzer [nope] not found');
  });
});

describe('shard count', () => {
  it('1 and 3 shards give the same hits and scores', async () => {
    const queries = [
      { match_bool_prefix: { title: 'quick brown f' } },
      { match_bool_prefix: { title: { query: 'brwn quic', fuzziness: 'AUTO' } } },
      { match_phrase_prefix: { title: 'quick brown f' } },
      { match_phrase_prefix: { title: { query: 'quick brown f', max_expansions: 1 } } },
      { multi_match: { query: 'brown b', fields: ['title^2', 'tag'], type: 'bool_prefix' } },
      { multi_match: { query: 'quick', fields: ['title'], type: 'phrase_prefix' } },
    ];
    for (const query of queries) {
      const one = await q(query);
      const three = await q(query, 'books3');
      expect(ids(three)).toEqual(ids(one));
      expect(scores(three)).toEqual(scores(one));
    }
  });
});
