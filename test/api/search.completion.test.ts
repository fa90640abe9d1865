/**
 * Completion fields and the completion suggester:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/search-suggesters.html#completion-suggester
 * and the completion field type page (es-api.md §1.2 mapping types, §3.10 Suggest; Search UI
 * connector §4.2 / §5.4). Suggestions run against the same data in a 1-shard and a 3-shard index:
 * options must not depend on sharding.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';
import { mulberry32 } from '../../src/common/prng.js';

let t: TestApp;

const MAPPINGS = { properties: { title: { type: 'text' }, suggest: { type: 'completion' } } };

const SONGS: Array<[string, Record<string, unknown>]> = [
  ['1', { title: 'Nevermind', suggest: { input: ['Nevermind', 'Nirvana'], weight: 34 } }],
  ['2', { title: 'Nirvana unplugged', suggest: { input: 'Nirvana Unplugged', weight: 20 } }],
  ['3', { title: 'Nine Inch Nails', suggest: [{ input: 'Nine Inch Nails', weight: 10 }, { input: 'NIN', weight: 3 }] }],
  ['4', { title: 'Nick Cave', suggest: 'Nick Cave' }],
  ['5', { title: 'Nirvana again', suggest: { input: 'Nirvana', weight: 15 } }],
  ['6', { title: 'Portishead', suggest: ['Portishead', 'Dummy'] }],
];

beforeAll(async () => {
  t = await createTestApp();
  for (const [name, shards] of [['music1', 1], ['music3', 3]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, name, SONGS);
  }
});
afterAll(async () => t.close());

/** Runs the search on both indices, checks their suggestions agree and returns the 1-shard body. */
async function both(body: unknown): Promise<Record<string, any>> {
  const one = await t.request('POST', '/music1/_search', body);
  const three = await t.request('POST', '/music3/_search', body);
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  const strip = (b: any) => JSON.parse(JSON.stringify(b.suggest ?? null).replaceAll('"music3"', '"music1"'));
  expect(strip(three.body)).toEqual(strip(one.body));
  return one.body;
}

const options = async (completion: Record<string, unknown>, prefix = 'nir') => {
  const body = await both({ size: 0, suggest: { s: { prefix, completion: { field: 'suggest', ...completion } } } });
  return body.suggest.s[0].options.map((o: any) => [o.text, o._id, o._score]);
};

describe('the completion suggester', () => {
  it('answers a prefix with options by weight, in ES shape', async () => {
    const body = await both({ suggest: { song: { prefix: 'nir', completion: { field: 'suggest' } } } });
    expect(body.suggest).toEqual({
      song: [{
        text: 'nir', offset: 0, length: 3,
        options: [
          { text: 'Nirvana', _index: 'music1', _id: '1', _score: 34, _source: SONGS[0][1] },
          { text: 'Nirvana Unplugged', _index: 'music1', _id: '2', _score: 20, _source: SONGS[1][1] },
          { text: 'Nirvana', _index: 'music1', _id: '5', _score: 15, _source: SONGS[4][1] },
        ],
      }],
    });
  });

  it('is case-insensitive through the simple analyzer and matches the whole input, not words', async () => {
    expect(await options({}, 'NI')).toEqual([['Nirvana', '1', 34], ['Nirvana Unplugged', '2', 20], ['Nirvana', '5', 15], ['Nine Inch Nails', '3', 10], ['Nick Cave', '4', 1]]);
    expect(await options({}, 'cave')).toEqual([]);
    expect(await options({}, 'nirvana u')).toEqual([['Nirvana Unplugged', '2', 20]]);
  });
});

describe('completion mapping', () => {
  it('renders ES defaults in GET _mapping', async () => {
    const res = await t.request('GET', '/music1/_mapping');
    expect(res.body.music1.mappings.properties.suggest).toEqual({
      type: 'completion', analyzer: 'simple', preserve_separators: true, preserve_position_increments: true, max_input_length: 50,
    });
  });

  it('keeps given parameters, renders search_analyzer only when it differs, and takes max_input_len', async () => {
    const res = await t.request('PUT', '/mapped', {
      mappings: { properties: {
        a: { type: 'completion', analyzer: 'standard', search_analyzer: 'simple', preserve_separators: false, max_input_len: 20 },
        b: { type: 'completion', analyzer: 'keyword', search_analyzer: 'keyword', preserve_position_increments: 'false' },
        title: { type: 'text', fields: { suggest: { type: 'completion' } } },
      } },
    });
    expect(res.status).toBe(200);
    const props = (await t.request('GET', '/mapped/_mapping')).body.mapped.mappings.properties;
    expect(props.a).toEqual({ type: 'completion', analyzer: 'standard', search_analyzer: 'simple', preserve_separators: false, preserve_position_increments: true, max_input_length: 20 });
    expect(props.b).toEqual({ type: 'completion', analyzer: 'keyword', preserve_separators: true, preserve_position_increments: false, max_input_length: 50 });
    expect(props.title.fields.suggest.type).toBe('completion');
    // Spelling out a default is no conflict; max_input_length may change, analyzer may not.
    expect((await t.request('PUT', '/mapped/_mapping', { properties: { a: { type: 'completion', analyzer: 'standard', search_analyzer: 'simple', preserve_separators: false, max_input_length: 30 } } })).status).toBe(200);
    const conflict = await t.request('PUT', '/mapped/_mapping', { properties: { b: { type: 'completion', analyzer: 'simple' } } });
    expectErrorType(conflict, 400, 'illegal_argument_exception', /Cannot update parameter \[analyzer\] from \[keyword\] to \[simple\]/);
  });

  it('suggests from completion multi-fields and honours the analysis parameters', async () => {
    await t.bulk('/mapped/_bulk', [
      { index: { _id: '1' } }, { title: 'Hello World', a: 'Nirvana Band', b: 'Foo Fighters' },
      { index: { _id: '2' } }, { title: 'hello there', a: 'The Beatles', b: 'foo' },
    ], '?refresh=true');
    const suggest = async (field: string, prefix: string) => {
      const res = await t.request('POST', '/mapped/_search', { size: 0, suggest: { s: { prefix, completion: { field } } } });
      expect(res.status).toBe(200);
      return res.body.suggest.s[0].options.map((o: any) => o.text);
    };
    expect(await suggest('title.suggest', 'HELLO')).toEqual(['Hello World', 'hello there']);
    expect(await suggest('title.suggest', 'hello w')).toEqual(['Hello World']);
    // preserve_separators false: tokens are concatenated, at index and at search time.
    expect(await suggest('a', 'nirvanab')).toEqual(['Nirvana Band']);
    // keyword analysis: the whole input, case kept.
    expect(await suggest('b', 'Foo F')).toEqual(['Foo Fighters']);
    expect(await suggest('b', 'foo')).toEqual(['foo']);
  });

  it('refuses bad parameters and contexts', async () => {
    expectErrorType(await t.request('PUT', '/bad1', { mappings: { properties: { s: { type: 'completion', max_input_length: 0 } } } }),
      400, 'mapper_parsing_exception', 'Failed to parse mapping: [max_input_length] must be > 0 but was [0]');
    expectErrorType(await t.request('PUT', '/bad2', { mappings: { properties: { s: { type: 'completion', analyzer: 'nope' } } } }),
      400, 'mapper_parsing_exception', 'Failed to parse mapping: analyzer [nope] has not been configured in mappings');
    expectErrorType(await t.request('PUT', '/bad3', { mappings: { properties: { s: { type: 'completion', contexts: [{ name: 'c', type: 'category' }] } } } }),
      400, 'mapper_parsing_exception', 'Failed to parse mapping: [contexts] of [completion] fields are not supported by this server yet');
    expectErrorType(await t.request('PUT', '/bad4', { mappings: { properties: { s: { type: 'completion', foo: 1 } } } }),
      400, 'mapper_parsing_exception', 'Failed to parse mapping: unknown parameter [foo] on mapper [s] of type [completion]');
  });
});

describe('completion inputs', () => {
  beforeAll(async () => {
    await t.request('PUT', '/inputs', { mappings: { properties: { s: { type: 'completion', max_input_length: 10 } } } });
  });

  const index = (id: string, doc: unknown) => t.request('PUT', `/inputs/_doc/${id}?refresh=true`, doc);
  const suggestAll = async (prefix: string) => {
    const res = await t.request('POST', '/inputs/_search', { size: 0, suggest: { x: { prefix, completion: { field: 's', size: 20 } } } });
    expect(res.status).toBe(200);
    return res.body.suggest.x[0].options.map((o: any) => [o.text, o._id, o._score]);
  };

  it('takes a string, an array, objects with input and weight, arrays of objects; null is no value', async () => {
    expect((await index('a', { s: 'alpha' })).status).toBe(201);
    expect((await index('b', { s: ['beta', 'bravo'] })).status).toBe(201);
    expect((await index('c', { s: { input: 'charlie', weight: 7 } })).status).toBe(201);
    expect((await index('d', { s: { input: ['delta', 'dog'], weight: '9' } })).status).toBe(201);
    expect((await index('e', { s: [{ input: 'echo', weight: 2 }, { input: ['easy', 'echo'], weight: 5 }] })).status).toBe(201);
    expect((await index('f', { s: null })).status).toBe(201);
    expect(await suggestAll('a')).toEqual([['alpha', 'a', 1]]);
    expect(await suggestAll('b')).toEqual([['beta', 'b', 1]]); // one option per document: its best input
    expect(await suggestAll('br')).toEqual([['bravo', 'b', 1]]);
    expect(await suggestAll('c')).toEqual([['charlie', 'c', 7]]);
    expect(await suggestAll('do')).toEqual([['dog', 'd', 9]]);
    expect(await suggestAll('ec')).toEqual([['echo', 'e', 5]]); // the larger weight of a repeated input
  });

  it('truncates inputs to max_input_length and skips blank ones', async () => {
    expect((await index('g', { s: ['golf course in the hills', '   '] })).status).toBe(201);
    expect(await suggestAll('golf')).toEqual([['golf cours', 'g', 1]]);
    expect(await suggestAll('golf course in')).toEqual([]);
  });

  const failure = async (doc: unknown, cause: string, causeType = 'illegal_argument_exception') => {
    const res = await index('bad', doc);
    expectErrorType(res, 400, 'document_parsing_exception', new RegExp(`^\\[1:\\d+\\] failed to parse: ${cause.replace(/[[\]().*+?]/g, '\\$&')}$`));
    expect(res.body.error.caused_by).toEqual({ type: causeType, reason: cause });
  };

  it('refuses bad weights as ES does', async () => {
    await failure({ s: { input: 'x', weight: 1.5 } }, 'weight must be an integer, but was [1.5]');
    await failure({ s: { input: 'x', weight: 'ten' } }, 'weight must be an integer, but was [ten]');
    await failure({ s: { input: 'x', weight: -1 } }, 'weight must be in the interval [0..2147483647], but was [-1]');
    await failure({ s: { input: 'x', weight: 2147483648 } }, 'weight must be in the interval [0..2147483647], but was [2147483648]');
    await failure({ s: { input: 'x', weight: true } }, 'weight must be a number or string, but was [VALUE_BOOLEAN]');
    await failure({ s: { input: 'x', weight: [1] } }, 'weight must be a number or string, but was [START_ARRAY]');
  });

  it('refuses bad inputs as ES does', async () => {
    await failure({ s: { input: 5 } }, 'input must be a string or array, but was [VALUE_NUMBER]');
    await failure({ s: { input: ['a', 5] } }, 'input array must have string values, but was [VALUE_NUMBER]');
    await failure({ s: { input: 'a', foo: 1 } }, 'unknown field name [foo], must be one of [input, weight, contexts]');
    await failure({ s: { input: 'a', contexts: { c: 'x' } } }, 'contexts field is not supported for field: [s]');
    await failure({ s: 5 }, 'failed to parse [s]: expected text or object, but got VALUE_NUMBER', 'parsing_exception');
    await failure({ s: ['a', true] }, 'failed to parse [null]: expected text or object, but got VALUE_BOOLEAN', 'parsing_exception');
  });
});

describe('suggest options', () => {
  it('applies size after merging the shards and dedups texts with skip_duplicates', async () => {
    expect(await options({ size: 2 })).toEqual([['Nirvana', '1', 34], ['Nirvana Unplugged', '2', 20]]);
    expect(await options({ skip_duplicates: true })).toEqual([['Nirvana', '1', 34], ['Nirvana Unplugged', '2', 20]]);
    expect(await options({ skip_duplicates: true, size: 1 })).toEqual([['Nirvana', '1', 34]]);
  });

  it('scores fuzzy matches as Lucene does: weight × the matched path\'s common prefix with the query', async () => {
    // "nirv" and "nirw" both match "nir…" (the shortest accepted prefix, one edit away): boost 3.
    expect(await options({ fuzzy: true }, 'nirw')).toEqual([['Nirvana', '1', 102], ['Nirvana Unplugged', '2', 60], ['Nirvana', '5', 45]]);
    expect(await options({ fuzzy: { fuzziness: 'AUTO' } }, 'nirv')).toEqual([['Nirvana', '1', 102], ['Nirvana Unplugged', '2', 60], ['Nirvana', '5', 45]]);
    // Shorter than min_length: exact, boosted by the whole prefix.
    expect(await options({ fuzzy: true }, 'ni')).toEqual([['Nirvana', '1', 68], ['Nirvana Unplugged', '2', 40], ['Nirvana', '5', 30], ['Nine Inch Nails', '3', 20], ['Nick Cave', '4', 2]]);
    // The first character is not fuzzy (prefix_length 1) unless asked.
    expect(await options({ fuzzy: true }, 'mirv')).toEqual([]);
    expect(await options({ fuzzy: { prefix_length: 0 } }, 'mirv')).toEqual([['Nirvana', '1', 34], ['Nirvana Unplugged', '2', 20], ['Nirvana', '5', 15]]);
    expect(await options({ fuzzy: { fuzziness: 2, transpositions: false } }, 'nrivana')).toEqual([['Nirvana', '1', 34], ['Nirvana Unplugged', '2', 20], ['Nirvana', '5', 15]]);
  });

  it('matches a regex against a prefix of the analyzed forms', async () => {
    const body = await both({ size: 0, suggest: { r: { regex: 'ni[rn]', completion: { field: 'suggest' } } } });
    expect(body.suggest.r[0]).toMatchObject({ text: 'ni[rn]', offset: 0, length: 6 });
    expect(body.suggest.r[0].options.map((o: any) => [o.text, o._score])).toEqual([['Nirvana', 34], ['Nirvana Unplugged', 20], ['Nirvana', 15], ['Nine Inch Nails', 10]]);
    const sep = await both({ size: 0, suggest: { r: { regex: 'nine.inch', completion: { field: 'suggest' } } } });
    expect(sep.suggest.r[0].options.map((o: any) => o.text)).toEqual(['Nine Inch Nails']);
  });

  it('uses the global text, keeps several suggestions sorted by name, and filters _source', async () => {
    const body = await both({
      _source: ['title'],
      suggest: { text: 'po', z: { completion: { field: 'suggest' } }, a: { text: 'du', completion: { field: 'suggest' } } },
    });
    expect(Object.keys(body.suggest)).toEqual(['a', 'z']);
    expect(body.suggest.a).toEqual([{ text: 'du', offset: 0, length: 2, options: [{ text: 'Dummy', _index: 'music1', _id: '6', _score: 1, _source: { title: 'Portishead' } }] }]);
    expect(body.suggest.z[0].options.map((o: any) => o.text)).toEqual(['Portishead']);
  });

  it('returns hits next to suggestions, and an entry without options when nothing matches', async () => {
    const body = await both({ query: { match: { title: 'nirvana' } }, suggest: { s: { text: 'zz', completion: { field: 'suggest' } } } });
    expect(body.hits.total).toEqual({ value: 2, relation: 'eq' });
    expect(body.hits.hits.map((h: any) => h._id).sort()).toEqual(['2', '5']);
    expect(body.suggest).toEqual({ s: [{ text: 'zz', offset: 0, length: 2, options: [] }] });
    expect(Object.keys(body)).toEqual(['took', 'timed_out', '_shards', 'hits', 'suggest']);
    // No suggestion, no suggest section (ES reduces none).
    expect((await both({ size: 0, suggest: { text: 'nir' } })).suggest).toBeUndefined();
  });

  it('answers the Search UI connector\'s autocomplete request (search-ui-connector.md §4.2)', async () => {
    const body = await both({
      size: 0, _source: { includes: [] },
      suggest: { suggest: { prefix: 'nir', completion: { size: 4, skip_duplicates: true, field: 'suggest', fuzzy: { fuzziness: 1 } } } },
    });
    expect(body.hits).toEqual({ total: { value: 6, relation: 'eq' }, max_score: null, hits: [] });
    // "nir" is fuzzy (3 ≥ min_length): "n" + one edit of "ir" accepts "ni…" already, boost 2.
    expect(body.suggest.suggest[0].options.map((o: any) => [o.text, o._score])).toEqual([['Nirvana', 68], ['Nirvana Unplugged', 40], ['Nine Inch Nails', 20], ['Nick Cave', 2]]);
  });

  it('searches completion fields with term and match queries as ES does (whole analyzed forms), and refuses ranges and aggregations', async () => {
    const term = await t.request('POST', '/music1/_search', { query: { term: { suggest: 'nirvana' } } });
    expect(term.body.hits.hits.map((h: any) => h._id).sort()).toEqual(['1', '5']);
    const match = await t.request('POST', '/music1/_search', { query: { match: { suggest: 'NIRVANA unplugged' } } });
    expect(match.body.hits.hits.map((h: any) => h._id)).toEqual(['2']);
    const none = await t.request('POST', '/music1/_search', { query: { match: { suggest: 'unplugged' } } });
    expect(none.body.hits.total.value).toBe(0);
    const exists = await t.request('POST', '/music1/_search', { query: { exists: { field: 'suggest' } } });
    expect(exists.body.hits.total.value).toBe(6);
    const range = await t.request('POST', '/music1/_search', { query: { range: { suggest: { gte: 'a' } } } });
    expectErrorType(range, 400, 'search_phase_execution_exception', 'all shards failed');
    expect(range.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: 'failed to create query: Field [suggest] of type [completion] does not support range queries' });
    const terms = await t.request('POST', '/music1/_search', { size: 0, aggs: { a: { terms: { field: 'suggest' } } } });
    expect(terms.body.error.root_cause[0]).toEqual({ type: 'illegal_argument_exception', reason: 'Field [suggest] of type [completion] is not supported for aggregation [terms]' });
  });

  it('is carried by _msearch', async () => {
    const res = await t.request('POST', '/_msearch', [
      JSON.stringify({ index: 'music1' }), JSON.stringify({ size: 0, suggest: { s: { prefix: 'po', completion: { field: 'suggest' } } } }), '',
    ].join('\n'), { 'content-type': 'application/x-ndjson' });
    expect(res.status).toBe(200);
    expect(res.body.responses[0].suggest.s[0].options.map((o: any) => o.text)).toEqual(['Portishead']);
  });
});

describe('suggest errors', () => {
  const search = (suggest: unknown, index = 'music1') => t.request('POST', `/${index}/_search`, { suggest });

  it('refuses malformed suggestions while parsing the request', async () => {
    expectErrorType(await search({ s: { prefix: 'n', completion: {} } }), 400, 'parse_exception', 'the required field option [field] is missing');
    expectErrorType(await search({ s: { prefix: 'n' } }), 400, 'parse_exception', 'missing suggestion object');
    expectErrorType(await search({ s: { prefix: 'n', foo: { field: 'suggest' } } }), 400, 'named_object_not_found_exception', /^\[1:\d+\] unknown field \[foo\]$/);
    expectErrorType(await search({ s: { prefix: 'n', term: { field: 'title' } } }), 400, 'illegal_argument_exception', '[term] suggester is not supported by this server yet');
    expectErrorType(await search({ s: { prefix: 'n', completion: { field: 'suggest', foo: 1 } } }), 400, 'x_content_parse_exception', /^\[1:\d+\] \[completion\] unknown field \[foo\]$/);
    const size = await search({ s: { prefix: 'n', completion: { field: 'suggest', size: 0 } } });
    expectErrorType(size, 400, 'x_content_parse_exception', /^\[1:\d+\] \[completion\] failed to parse field \[size\]$/);
    expect(size.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'size must be positive' });
    const fuzzy = await search({ s: { prefix: 'n', completion: { field: 'suggest', fuzzy: { fuzziness: -1 } } } });
    expectErrorType(fuzzy, 400, 'x_content_parse_exception', /\[completion\] failed to parse field \[fuzzy\]$/);
    expect(fuzzy.body.error.caused_by.reason).toMatch(/\[fuzzy\] failed to parse field \[fuzziness\]$/);
    expectErrorType(await search({ foo: 'x', s: { prefix: 'n', completion: { field: 'suggest' } } }), 400, 'illegal_argument_exception', '[suggest] does not support [foo]');
    expectErrorType(await search({ s: { foo: 'x', completion: { field: 'suggest' } } }), 400, 'parsing_exception', 'suggestion does not support [foo]');
  });

  const shardFailure = async (suggest: unknown, reason: string, index = 'music1') => {
    const res = await search(suggest, index);
    expectErrorType(res, 400, 'search_phase_execution_exception', 'all shards failed');
    expect(res.body.error.root_cause).toEqual([{ type: 'illegal_argument_exception', reason }]);
  };

  it('fails the shards for fields that are not completion fields, missing texts and bad combinations', async () => {
    await shardFailure({ s: { prefix: 'n', completion: { field: 'nope' } } }, 'no mapping found for field [nope]');
    await shardFailure({ s: { prefix: 'n', completion: { field: 'title' } } }, 'Field [title] is not a completion suggest field', 'music3');
    await shardFailure({ s: { completion: { field: 'suggest' } } }, 'The required text option is missing');
    await shardFailure({ s: { regex: 'n.*', completion: { field: 'suggest', fuzzy: true } } }, "can not use 'fuzzy' options with 'regex");
    await shardFailure({ s: { prefix: 'n', completion: { field: 'suggest', contexts: { genre: ['rock'] } } } }, "suggester [suggest] doesn't expect any context");
    await shardFailure({ s: { prefix: 'n', completion: { field: 'suggest', analyzer: 'nope' } } }, "analyzer [nope] doesn't exists");
  });

  it('rejects suggest with a legacy rank as ES validation does', async () => {
    const res = await t.request('POST', '/music1/_search', {
      sub_searches: [{ query: { match_all: {} } }, { query: { match: { title: 'nirvana' } } }], rank: { rrf: {} },
      suggest: { s: { prefix: 'n', completion: { field: 'suggest' } } },
    });
    expectErrorType(res, 400, 'action_request_validation_exception', /\[rank\] cannot be used with \[suggest\]/);
  });
});


describe('options over many segments, deletes, updates and merges', () => {
  const WORDS = ['alpha', 'alpine', 'Alps', 'alto', 'beta', 'Bravo', 'bravo club', 'Alpha Beta', 'alp', 'al pine', 'Beta  max'];
  /** The live documents, by id: inputs with weights, and their write order. */
  const live = new Map<string, { inputs: Array<[string, number]>; order: number }>();
  let writes = 0;

  /** The simple analyzer's analyzed form: letter runs, lowercased, joined by the separator. */
  const form = (s: string) => (s.match(/\p{L}+/gu) ?? []).map((w) => w.toLowerCase()).join('\u001f');

  /** What the options must be, from first principles (exec-suggest.ts's orders, OptionPicker's rule). */
  function expected(prefix: string, size: number, skip: boolean): Array<[string, string, number]> {
    const q = form(prefix);
    if (q === '') return [];
    const cands: Array<{ id: string; text: string; form: string; score: number; order: number }> = [];
    for (const [id, d] of live) for (const [text, weight] of d.inputs) if (form(text).startsWith(q)) cands.push({ id, text, form: form(text), score: weight, order: d.order });
    const cp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    cands.sort((a, b) => b.score - a.score || cp(a.form, b.form) || a.order - b.order || cp(a.text, b.text));
    const docs = new Set<string>();
    const texts = new Set<string>();
    const picked = [];
    for (const c of cands) {
      if (picked.length === size) break;
      if (docs.has(c.id) || (skip && texts.has(c.text))) continue;
      docs.add(c.id);
      texts.add(c.text);
      picked.push(c);
    }
    picked.sort((a, b) => b.score - a.score || cp(a.text, b.text) || a.order - b.order);
    return picked.map((c) => [c.text, c.id, c.score]);
  }

  async function write(id: string, inputs: Array<[string, number]>): Promise<void> {
    for (const index of ['many1', 'many3']) {
      const res = await t.request('PUT', `/${index}/_doc/${id}`, { s: inputs.map(([input, weight]) => ({ input, weight })) });
      expect([200, 201]).toContain(res.status);
    }
    live.set(id, { inputs, order: writes++ });
  }

  async function check(): Promise<void> {
    for (const prefix of ['a', 'al', 'alp', 'ALPI', 'al p', 'b', 'bravo c', 'x', '!']) {
      for (const size of [1, 3, 7]) {
        for (const skip of [false, true]) {
          const want = expected(prefix, size, skip);
          for (const index of ['many1', 'many3']) {
            const res = await t.request('POST', `/${index}/_search`, { size: 0, suggest: { s: { prefix, completion: { field: 's', size, skip_duplicates: skip } } } });
            expect(res.status).toBe(200);
            expect([prefix, size, skip, res.body.suggest.s[0].options.map((o: any) => [o.text, o._id, o._score])]).toEqual([prefix, size, skip, want]);
          }
        }
      }
    }
  }

  beforeAll(async () => {
    for (const [name, shards] of [['many1', 1], ['many3', 3]] as const) {
      await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards, refresh_interval: '-1' }, mappings: { properties: { s: { type: 'completion' } } } });
    }
    const rnd = mulberry32(42);
    const pick = () => WORDS[Math.floor(rnd() * WORDS.length)];
    for (let batch = 0; batch < 6; batch++) {
      for (let i = 0; i < 40; i++) {
        const id = String(Math.floor(rnd() * 150));
        const inputs = new Map<string, number>();
        const n = 1 + Math.floor(rnd() * 3);
        // Distinct analyzed forms within a document, so the reference's order is total.
        for (let k = 0; k < n; k++) {
          const w = pick();
          if (![...inputs.keys()].some((x) => form(x) === form(w))) inputs.set(w, Math.floor(rnd() * 4));
        }
        await write(id, [...inputs]);
      }
      for (let i = 0; i < 5; i++) {
        const id = String(Math.floor(rnd() * 150));
        if (!live.has(id)) continue;
        for (const index of ['many1', 'many3']) expect((await t.request('DELETE', `/${index}/_doc/${id}`)).status).toBe(200);
        live.delete(id);
      }
      for (const index of ['many1', 'many3']) await t.request('POST', `/${index}/_refresh`);
    }
  });

  it('gives the same options as a brute-force reference, with 1 and 3 shards, across segments', async () => {
    await check();
  });

  it('still does after merging every shard into one segment', async () => {
    for (const index of ['many1', 'many3']) expect((await t.request('POST', `/${index}/_forcemerge?max_num_segments=1`)).status).toBe(200);
    await check();
  });

  it('sees deletes and updates after a refresh', async () => {
    const [first] = expected('alp', 1, false);
    await write(first[1], [['zulu', 5]]);
    for (const index of ['many1', 'many3']) await t.request('POST', `/${index}/_refresh`);
    expect(expected('alp', 1, false)[0][1]).not.toBe(first[1]);
    expect(expected('zu', 1, false)).toEqual([['zulu', first[1], 5]]);
    await check();
    for (const index of ['many1', 'many3']) {
      await t.request('DELETE', `/${index}/_doc/${first[1]}?refresh=true`);
      const res = await t.request('POST', `/${index}/_search`, { size: 0, suggest: { s: { prefix: 'zu', completion: { field: 's' } } } });
      expect(res.body.suggest.s[0].options).toEqual([]);
    }
    live.delete(first[1]);
    await check();
  });
});

describe('durability', () => {
  it('serves the same suggestions after a restart, from flushed segments and from the translog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'completion-restart-'));
    try {
      const body = { size: 0, suggest: { s: { prefix: 'ni', completion: { field: 'suggest' } } } };
      let node = await createTestApp({ dataDir: join(dir, 'data') });
      await node.request('PUT', '/songs', { settings: { number_of_shards: 2 }, mappings: MAPPINGS });
      await seed(node, 'songs', SONGS.slice(0, 3));
      await node.request('POST', '/songs/_flush');
      // Written after the flush: only the translog has these when the node stops.
      await seed(node, 'songs', SONGS.slice(3));
      const before = (await node.request('POST', '/songs/_search', body)).body.suggest;
      expect(before.s[0].options).toHaveLength(5);
      // What a crash leaves on disk: the flushed segments and the fsynced translog.
      cpSync(join(dir, 'data'), join(dir, 'crashed'), { recursive: true });
      await node.close();
      for (const image of ['data', 'crashed']) {
        node = await createTestApp({ dataDir: join(dir, image) });
        expect((await node.request('POST', '/songs/_search', body)).body.suggest).toEqual(before);
        expect((await node.request('GET', '/songs/_mapping')).body.songs.mappings.properties.suggest.type).toBe('completion');
        await node.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
