/**
 * Highlighting (es-api.md §3.8, https://www.elastic.co/guide/en/elasticsearch/reference/8.15/highlighting.html)
 * with ES's default `unified` highlighter: sentence passages bounded by fragment_size, the best
 * number_of_fragments in text order (or by score), ES 8.10+'s weight-matches mode (a phrase is one
 * highlighted span; clauses that do not match the document highlight nothing) and the term mode of
 * require_field_match false and of fused RRF pages. Every request runs against a 1-shard index (the
 * worker renders the page) and a 3-shard one (the coordinator does): highlights must agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectErrorType, seed } from './es.js';

let t: TestApp;

const STORY = 'Rain fell all night. A red fox crossed the old bridge at dawn. Farmers in the valley talk about weather, prices, '
  + 'harvests, machines, markets and the long winter ahead of them every single year. Later a second fox hid under the barn '
  + 'door. Children counted one two three four five six seven eight. In the end the tired fox slept.';

const DOCS: Array<[string, Record<string, unknown>]> = [
  ['1', {
    title: 'Quick Brown Foxes', body: 'A quick brown fox jumps over the lazy dog. The dog keeps sleeping.', story: STORY,
    notes: ['grey fox', 'brown bear', 'arctic fox'], html: '<i>fox</i> & "friends"', tags: ['fox', 'animal'], price: 10,
  }],
  ['2', { title: 'Sleepy Dogs', body: 'Dogs are sleepy. Foxes are quick.', tags: ['dog'], price: 20 }],
  ['3', { title: 'Fox fox FOX', body: 'fox', notes: 'fox', price: 30 }],
];

const MAPPINGS = {
  properties: {
    title: { type: 'text', fields: { keyword: { type: 'keyword' } } }, body: { type: 'text' }, story: { type: 'text' },
    notes: { type: 'text' }, html: { type: 'text' }, tags: { type: 'keyword' }, price: { type: 'long' },
    english: { type: 'text', analyzer: 'english' },
  },
};

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  for (const [name, shards] of [['hl1', 1], ['hl3', 3]] as const) {
    expect((await t.request('PUT', `/${name}`, { settings: { number_of_shards: shards }, mappings: MAPPINGS })).status).toBe(200);
    await seed(t, name, DOCS);
  }
});
afterAll(async () => t.close());

type Highlights = Array<[string, Record<string, string[]> | undefined]>;

/** Runs the search on both indices (sorted by id unless a sort is given) and returns `[id, highlight]` per hit. */
async function highlights(body: Record<string, unknown>): Promise<Highlights> {
  const request = { sort: [{ 'title.keyword': 'asc' }], ...body };
  const one = await t.request('POST', '/hl1/_search', request);
  const three = await t.request('POST', '/hl3/_search', request);
  expect(one.status).toBe(200);
  expect(three.status).toBe(200);
  const pairs = (res: TestResponse): Highlights => res.body.hits.hits.map((h: { _id: string; highlight?: Record<string, string[]> }) => [h._id, h.highlight]);
  expect(pairs(three)).toEqual(pairs(one));
  return pairs(one);
}

const byId = (list: Highlights) => Object.fromEntries(list);

describe('fragments', () => {
  it('highlights the matching sentence of a field', async () => {
    expect(await highlights({ query: { match: { body: 'foxes' } }, highlight: { fields: { body: {} } } })).toEqual([
      ['2', { body: ['<em>Foxes</em> are quick.'] }],
    ]);
  });

  it('places highlight after _source and before sort, and leaves it out of hits without a highlighted field', async () => {
    const res = await t.request('POST', '/hl1/_search', {
      query: { bool: { should: [{ match: { body: 'dog' } }, { match: { title: 'fox' } }] } }, sort: ['price'], highlight: { fields: { body: {} } },
    });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits).toEqual([
      {
        _index: 'hl1', _id: '1', _score: null, _source: DOCS[0][1],
        highlight: { body: ['A quick brown fox jumps over the lazy <em>dog</em>. The <em>dog</em> keeps sleeping.'] }, sort: [10],
      },
      { _index: 'hl1', _id: '3', _score: null, _source: DOCS[2][1], sort: [30] },
    ]);
  });

  it('keeps whole sentences that fit in fragment_size (100), in text order', async () => {
    expect(byId(await highlights({ query: { match: { story: 'fox' } }, highlight: { fields: { story: {} } } }))['1']).toEqual({
      story: [
        'A red <em>fox</em> crossed the old bridge at dawn.',
        'Later a second <em>fox</em> hid under the barn door.',
        'In the end the tired <em>fox</em> slept.',
      ],
    });
  });

  it('joins sentences while they fit in fragment_size', async () => {
    const res = await highlights({ query: { match: { story: 'rain' } }, highlight: { fields: { story: { fragment_size: 70 } } } });
    expect(byId(res)['1']).toEqual({ story: ['<em>Rain</em> fell all night. A red fox crossed the old bridge at dawn.'] });
  });

  it('cuts a sentence longer than fragment_size at words around the match', async () => {
    const res = await highlights({ query: { match: { story: 'machines' } }, highlight: { fields: { story: { fragment_size: 30 } } } });
    // The sentence is 130 characters: 30 around the match, words kept whole (ES BoundedBreakIteratorScanner).
    expect(byId(res)['1']).toEqual({ story: ['about weather, prices, harvests, <em>machines</em>'] });
  });

  it('keeps the number_of_fragments best passages in text order, or by score with order: score', async () => {
    let res = await highlights({ query: { match: { story: 'fox' } }, highlight: { fields: { story: { number_of_fragments: 2 } } } });
    expect(byId(res)['1']).toEqual({ story: ['A red <em>fox</em> crossed the old bridge at dawn.', 'In the end the tired <em>fox</em> slept.'] });
    res = await highlights({ query: { match: { story: 'fox' } }, highlight: { order: 'score', fields: { story: {} } } });
    expect(byId(res)['1']).toEqual({
      story: [
        'In the end the tired <em>fox</em> slept.',
        'A red <em>fox</em> crossed the old bridge at dawn.',
        'Later a second <em>fox</em> hid under the barn door.',
      ],
    });
  });

  it('returns the whole value with number_of_fragments 0, fragment_size ignored', async () => {
    const res = await highlights({ query: { match: { story: 'fox' } }, highlight: { fields: { story: { number_of_fragments: 0, fragment_size: 10 } } } });
    expect(byId(res)['1']).toEqual({ story: [STORY.replace(/\bfox\b/g, '<em>fox</em>')] });
  });

  it('gives one fragment per matching value of an array', async () => {
    expect(await highlights({ query: { match: { notes: 'fox' } }, highlight: { fields: { notes: {} } } })).toEqual([
      ['3', { notes: ['<em>fox</em>'] }],
      ['1', { notes: ['grey <em>fox</em>', 'arctic <em>fox</em>'] }],
    ]);
  });

  it('highlights single words with boundary_scanner: word', async () => {
    const res = await highlights({ query: { match: { body: 'dog' } }, highlight: { fields: { body: { boundary_scanner: 'word' } } } });
    expect(byId(res)['1']).toEqual({ body: ['<em>dog</em>', '<em>dog</em>'] });
  });
});

describe('queries', () => {
  it('multi_match highlights each field the query searched', async () => {
    const res = await highlights({ query: { multi_match: { query: 'quick fox', fields: ['title', 'body'] } }, highlight: { fields: { title: {}, body: {} } } });
    expect(byId(res)).toEqual({
      1: { title: ['<em>Quick</em> Brown Foxes'], body: ['A <em>quick</em> brown <em>fox</em> jumps over the lazy dog. The dog keeps sleeping.'] },
      2: { body: ['Foxes are <em>quick</em>.'] },
      3: { title: ['<em>Fox</em> <em>fox</em> <em>FOX</em>'], body: ['<em>fox</em>'] },
    });
  });

  it('match_phrase highlights each occurrence of the phrase as one span, and not its words elsewhere', async () => {
    const res = await highlights({ query: { match_phrase: { notes: 'brown bear' } }, highlight: { fields: { notes: {} } } });
    expect(res).toEqual([['1', { notes: ['<em>brown bear</em>'] }]]);
    const body = await highlights({ query: { match_phrase: { body: 'the dog' } }, highlight: { fields: { body: {} } } });
    expect(body).toEqual([['1', { body: ['<em>The dog</em> keeps sleeping.'] }]]);
  });

  it('with require_field_match false highlights every query term in any field, phrase words one by one', async () => {
    const res = await highlights({
      query: { match_phrase: { body: 'brown fox' } }, highlight: { require_field_match: false, fields: { body: {}, notes: {}, title: {} } },
    });
    // "brown" and "fox" are in notes and title too, but never as the phrase.
    expect(res).toEqual([['1', { body: ['A quick <em>brown</em> <em>fox</em> jumps over the lazy dog. The dog keeps sleeping.'] }]]);
    const terms = await highlights({ query: { match: { title: 'fox' } }, highlight: { require_field_match: false, fields: { body: {}, notes: {} } } });
    expect(byId(terms)).toEqual({
      3: { body: ['<em>fox</em>'], notes: ['<em>fox</em>'] },
    });
  });

  it('require_field_match (the default) highlights nothing in fields the query did not search', async () => {
    expect(await highlights({ query: { match: { title: 'fox' } }, highlight: { fields: { body: {}, notes: {} } } })).toEqual([['3', undefined]]);
  });

  it('query_string highlights its field and phrase clauses', async () => {
    const res = await highlights({ query: { query_string: { query: 'body:"lazy dog" OR title:quick' } }, highlight: { fields: { '*': {} } } });
    expect(res).toEqual([['1', { title: ['<em>Quick</em> Brown Foxes'], body: ['A quick brown fox jumps over the <em>lazy dog</em>. The dog keeps sleeping.'] }]]);
  });

  it('prefix, wildcard and fuzzy queries highlight the terms they expanded to', async () => {
    expect(await highlights({ query: { prefix: { body: 'jum' } }, highlight: { fields: { body: {} } } })).toEqual([
      ['1', { body: ['A quick brown fox <em>jumps</em> over the lazy dog. The dog keeps sleeping.'] }],
    ]);
    expect(await highlights({ query: { wildcard: { body: 'sl*ing' } }, highlight: { fields: { body: {} } } })).toEqual([
      ['1', { body: ['The dog keeps <em>sleeping</em>.'] }],
    ]);
    expect(await highlights({ query: { match: { title: { query: 'dogz', fuzziness: 'AUTO' } } }, highlight: { fields: { title: {} } } })).toEqual([
      ['2', { title: ['Sleepy <em>Dogs</em>'] }],
    ]);
  });

  it('a clause that does not match the document highlights nothing (weight matches)', async () => {
    const res = await highlights({
      query: { bool: { should: [{ match: { body: { query: 'fox dog', operator: 'and' } } }, { match: { body: 'sleepy' } }] } },
      highlight: { fields: { body: {} } },
    });
    // Doc 2 has "sleepy" but neither "fox" nor "dog" (it says "Dogs"); the and-clause only matches doc 1.
    expect(byId(res)).toEqual({
      1: { body: ['A quick brown <em>fox</em> jumps over the lazy <em>dog</em>. The <em>dog</em> keeps sleeping.'] },
      2: { body: ['Dogs are <em>sleepy</em>. Foxes are quick.'] },
    });
  });

  it('highlight_query replaces the search query, per field or for all', async () => {
    let res = await highlights({ query: { match_all: {} }, highlight: { fields: { body: { highlight_query: { match: { body: 'sleeping' } } } } } });
    expect(byId(res)).toEqual({ 1: { body: ['The dog keeps <em>sleeping</em>.'] }, 2: undefined, 3: undefined });
    res = await highlights({ query: { match: { body: 'fox' } }, highlight: { highlight_query: { match: { body: 'lazy' } }, fields: { body: {} } } });
    expect(byId(res)).toEqual({ 1: { body: ['A quick brown fox jumps over the <em>lazy</em> dog. The dog keeps sleeping.'] }, 3: undefined });
  });

  it('matches terms after analysis with the field analyzer, offsets in the original text', async () => {
    await t.request('PUT', '/hl1/_doc/4?refresh=true', { english: 'She was running; the runner runs daily.' });
    const res = await t.request('POST', '/hl1/_search', { query: { match: { english: 'run' } }, highlight: { fields: { english: {} } } });
    expect(res.body.hits.hits.map((h: { highlight: unknown }) => h.highlight)).toEqual([
      { english: ['She was <em>running</em>; the runner <em>runs</em> daily.'] },
    ]);
    await t.request('DELETE', '/hl1/_doc/4?refresh=true');
  });
});

describe('fields and options', () => {
  it('expands wildcard names to text and keyword fields (multi-fields too)', async () => {
    const res = await highlights({ query: { term: { 'title.keyword': 'Sleepy Dogs' } }, highlight: { fields: { 'title*': {} } } });
    expect(res).toEqual([['2', { 'title.keyword': ['<em>Sleepy Dogs</em>'] }]]);
  });

  it('highlights keyword values whole', async () => {
    expect(await highlights({ query: { terms: { tags: ['fox', 'animal'] } }, highlight: { fields: { tags: {} } } })).toEqual([
      ['1', { tags: ['<em>fox</em>', '<em>animal</em>'] }],
    ]);
  });

  it('uses the first pre/post tag, and tags_schema styled', async () => {
    let res = await highlights({ query: { match: { body: 'dog' } }, highlight: { pre_tags: ['<b>', '<i>'], post_tags: ['</b>', '</i>'], fields: { body: {} } } });
    expect(byId(res)['1']).toEqual({ body: ['A quick brown fox jumps over the lazy <b>dog</b>. The <b>dog</b> keeps sleeping.'] });
    res = await highlights({ query: { match: { body: 'dog' } }, highlight: { tags_schema: 'styled', fields: { body: { post_tags: ['</x>'] } } } });
    expect(byId(res)['1']).toEqual({ body: ['A quick brown fox jumps over the lazy <em class="hlt1">dog</x>. The <em class="hlt1">dog</x> keeps sleeping.'] });
  });

  it('escapes the text but not the tags with encoder html', async () => {
    const res = await highlights({ query: { match: { html: 'fox' } }, highlight: { encoder: 'html', fields: { html: {} } } });
    expect(res).toEqual([['1', { html: ['&lt;i&gt;<em>fox</em>&lt;&#x2F;i&gt; &amp; &quot;friends&quot;'] }]]);
  });

  it('returns the start of fields without a match with no_match_size, cut after a word', async () => {
    const res = await highlights({ query: { match: { body: 'fox' } }, highlight: { fields: { body: {}, title: { no_match_size: 9 } } } });
    expect(byId(res)).toEqual({
      1: { body: ['A quick brown <em>fox</em> jumps over the lazy dog. The dog keeps sleeping.'], title: ['Quick Brown'] },
      3: { body: ['<em>fox</em>'], title: ['Fox fox FOX'] },
    });
  });

  it('reads the stored _source whatever _source filtering returns', async () => {
    const res = await t.request('POST', '/hl3/_search', { query: { match: { body: 'foxes' } }, _source: false, highlight: { fields: { body: {} } } });
    expect(res.body.hits.hits).toEqual([{ _index: 'hl3', _id: '2', _score: expect.any(Number), highlight: { body: ['<em>Foxes</em> are quick.'] } }]);
    const only = await t.request('POST', '/hl1/_search', { query: { match: { body: 'foxes' } }, _source: ['tags'], highlight: { fields: { body: {} } } });
    expect(only.body.hits.hits[0]).toMatchObject({ _source: { tags: ['dog'] }, highlight: { body: ['<em>Foxes</em> are quick.'] } });
  });

  it('stops analysing at max_analyzed_offset', async () => {
    const res = await highlights({ query: { match: { story: 'fox' } }, highlight: { max_analyzed_offset: 30, fields: { story: {} } } });
    expect(byId(res)['1']).toEqual({ story: ['A red <em>fox</em> crossed the old bridge at dawn.'] });
  });

  it('highlights only the returned page', async () => {
    const res = await highlights({ query: { match: { body: 'fox' } }, size: 1, from: 1, highlight: { fields: { body: {} } } });
    expect(res).toEqual([['1', { body: ['A quick brown <em>fox</em> jumps over the lazy dog. The dog keeps sleeping.'] }]]);
  });

  it('takes fields as an array of single-field objects', async () => {
    expect(await highlights({ query: { match: { body: 'foxes' } }, highlight: { fields: [{ body: {} }, { title: {} }] } })).toEqual([
      ['2', { body: ['<em>Foxes</em> are quick.'] }],
    ]);
  });
});

describe('search_as_you_type fields', () => {
  const search = (index: string, query: unknown) => t.request('POST', `/${index}/_search`, { query, highlight: { fields: { title: {} } } });

  it('highlight the words that prefix queries (on ._index_prefix) and phrase prefixes complete', async () => {
    for (const [index, shards] of [['sayt1', 1], ['sayt3', 3]] as const) {
      await t.request('PUT', `/${index}`, { settings: { number_of_shards: shards }, mappings: { properties: { title: { type: 'search_as_you_type' } } } });
      await seed(t, index, [['a', { title: 'Laptop Pro 14' }], ['b', { title: 'Wireless Earbuds' }], ['c', { title: 'Wireless Headphones for laptops' }]]);
      const fields = ['title', 'title._2gram', 'title._3gram'];
      let res = await search(index, { multi_match: { query: 'lap', type: 'bool_prefix', fields } });
      expect(Object.fromEntries(res.body.hits.hits.map((h: { _id: string; highlight: unknown }) => [h._id, h.highlight]))).toEqual({
        a: { title: ['<em>Laptop</em> Pro 14'] }, c: { title: ['Wireless Headphones for <em>laptops</em>'] },
      });
      res = await search(index, { multi_match: { query: 'wireless ea', type: 'phrase_prefix', fields } });
      expect(res.body.hits.hits.map((h: { _id: string; highlight: unknown }) => [h._id, h.highlight])).toEqual([['b', { title: ['<em>Wireless Earbuds</em>'] }]]);
      res = await search(index, { match_bool_prefix: { title: 'wireless ea' } });
      expect(res.body.hits.hits.find((h: { _id: string }) => h._id === 'b').highlight).toEqual({ title: ['<em>Wireless</em> <em>Earbuds</em>'] });
    }
  });
});

describe('hybrid search (rrf retriever)', () => {
  it('highlights the terms of every sub-retriever, one by one (ES turns weight matches off for fused pages)', async () => {
    const res = await t.request('POST', '/hl3/_search', {
      retriever: { rrf: { retrievers: [
        { standard: { query: { match_phrase: { body: 'brown fox' } } } },
        { standard: { query: { match: { title: 'dogs' } } } },
      ] } },
      highlight: { fields: { body: {}, title: {} } },
    });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.hits.hits.map((h: { _id: string; highlight: unknown }) => [h._id, h.highlight]))).toEqual({
      1: { body: ['A quick <em>brown</em> <em>fox</em> jumps over the lazy dog. The dog keeps sleeping.'] },
      2: { title: ['Sleepy <em>Dogs</em>'] },
    });
  });

  it('is rejected with the legacy rank form, as ES 8.9–8.15 do', async () => {
    const res = await t.request('POST', '/hl1/_search', {
      sub_searches: [{ query: { match: { body: 'fox' } } }, { query: { match: { title: 'dogs' } } }], rank: { rrf: {} },
      highlight: { fields: { body: {} } },
    });
    expectErrorType(res, 400, 'action_request_validation_exception', 'Validation Failed: 1: [rank] cannot be used with [highlighter];');
  });
});

describe('errors', () => {
  const bad = (highlight: unknown) => t.request('POST', '/hl1/_search', { query: { match: { body: 'fox' } }, highlight });

  it('rejects unknown options with ObjectParser errors', async () => {
    let res = await bad({ fragmnet_size: 10, fields: { body: {} } });
    expectErrorType(res, 400, 'x_content_parse_exception', /^\[1:\d+\] \[highlight\] unknown field \[fragmnet_size\] did you mean \[fragment_size\]\?$/);
    res = await bad({ fields: { body: { bad_option: 1 } } });
    expectErrorType(res, 400, 'x_content_parse_exception', /^\[1:\d+\] \[highlight\] failed to parse field \[fields\]$/);
    expect(res.body.error.caused_by.reason).toMatch(/^\[1:\d+\] \[fields\] failed to parse field \[body\]$/);
    expect(res.body.error.caused_by.caused_by.reason).toMatch(/^\[1:\d+\] \[highlight_field\] unknown field \[bad_option\]$/);
  });

  it('rejects wrong value types', async () => {
    let res = await bad({ fragment_size: { x: 1 }, fields: { body: {} } });
    expectErrorType(res, 400, 'x_content_parse_exception', /^\[1:\d+\] \[highlight\] fragment_size doesn't support values of type: START_OBJECT$/);
    res = await bad({ fields: { body: { number_of_fragments: 'many' } } });
    expectErrorType(res, 400, 'x_content_parse_exception', /\[highlight\] failed to parse field \[fields\]$/);
    expect(res.body.error.caused_by.caused_by.reason).toMatch(/\[highlight_field\] failed to parse field \[number_of_fragments\]$/);
    expect(res.body.error.caused_by.caused_by.caused_by).toEqual({ type: 'number_format_exception', reason: 'For input string: "many"' });
    res = await bad({ require_field_match: 'yes', fields: { body: {} } });
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'Failed to parse value [yes] as only [true] or [false] are allowed.' });
    res = await bad({ fields: 'body' });
    expectErrorType(res, 400, 'x_content_parse_exception', /\[highlight\] fields doesn't support values of type: VALUE_STRING$/);
    res = await bad({ fields: [{ body: {}, title: {} }] });
    expect(res.body.error.caused_by.reason).toMatch(/\[fields\] can be a single object with any number of fields or an array where each entry is an object with a single field$/);
    res = await bad({ fields: { body: 'x' } });
    expect(res.body.error.caused_by.caused_by.reason).toMatch(/\[highlight_field\] Expected START_OBJECT but was: VALUE_STRING$/);
    res = await t.request('POST', '/hl1/_search', { highlight: 'body' });
    expectErrorType(res, 400, 'parsing_exception', 'Unknown key for a VALUE_STRING in [highlight].');
  });

  it('checks tags, tag schemas, boundary scanners and max_analyzed_offset as ES does', async () => {
    let res = await bad({ pre_tags: ['<b>'], fields: { body: {} } });
    expectErrorType(res, 400, 'parsing_exception', 'pre_tags are set but post_tags are not set');
    res = await bad({ pre_tags: [], post_tags: [], fields: { body: {} } });
    expectErrorType(res, 400, 'parsing_exception', 'pre_tags or post_tags must not be empty');
    res = await bad({ tags_schema: 'fancy', fields: { body: {} } });
    expectErrorType(res, 400, 'x_content_parse_exception', /\[highlight\] failed to parse field \[tags_schema\]$/);
    expect(res.body.error.caused_by).toEqual({ type: 'illegal_argument_exception', reason: 'Unknown tag schema [fancy]' });
    res = await bad({ boundary_scanner: 'line', fields: { body: {} } });
    expect(res.body.error.caused_by.reason).toBe('No enum constant org.elasticsearch.search.fetch.subphase.highlight.HighlightBuilder.BoundaryScannerType.LINE');
    res = await bad({ max_analyzed_offset: 0, fields: { body: {} } });
    expect(res.body.error.caused_by.reason).toBe('[max_analyzed_offset] must be a positive integer');
  });

  it('fails the search when it highlights a hit with an unknown highlighter or the chars scanner', async () => {
    for (const index of ['hl1', 'hl3']) {
      let res = await t.request('POST', `/${index}/_search`, { query: { match: { body: 'fox' } }, highlight: { fields: { body: { type: 'fancy' } } } });
      expectErrorType(res, 400, 'search_phase_execution_exception', 'all shards failed');
      expect(res.body.error.root_cause).toEqual([{ type: 'illegal_argument_exception', reason: 'unknown highlighter type [fancy] for the field [body]' }]);
      res = await t.request('POST', `/${index}/_search`, { query: { match: { body: 'fox' } }, highlight: { boundary_scanner: 'chars', fields: { body: {} } } });
      expect(res.body.error.root_cause).toEqual([{ type: 'illegal_argument_exception', reason: 'Invalid boundary scanner type: chars' }]);
    }
    // Without hits to highlight nothing fails, and `plain` takes any scanner.
    let res = await t.request('POST', '/hl3/_search', { query: { match: { body: 'zebra' } }, highlight: { fields: { body: { type: 'fancy' } } } });
    expect(res.status).toBe(200);
    res = await t.request('POST', '/hl3/_search', { query: { match: { body: 'foxes' } }, highlight: { fields: { body: { type: 'plain', boundary_scanner: 'chars' } } } });
    expect(res.body.hits.hits[0].highlight).toEqual({ body: ['<em>Foxes</em> are quick.'] });
  });

  it('accepts the options of the other highlighters', async () => {
    const res = await bad({
      fields: { body: { fragment_offset: 2, matched_fields: ['body'], phrase_limit: 10, boundary_max_scan: 5, boundary_chars: '.,', fragmenter: 'span' } },
      highlight_filter: true, boundary_scanner_locale: 'en-US', options: { a: 1 },
    });
    expect(res.status).toBe(200);
  });
});
