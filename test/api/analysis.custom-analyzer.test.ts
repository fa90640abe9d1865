/**
 * Custom analysis in index settings — https://www.elastic.co/guide/en/elasticsearch/reference/8.15/analysis-custom-analyzer.html,
 * specify-analyzer.html (default, default_search, search_analyzer, search_quote_analyzer),
 * analysis-normalizers.html: definitions validated at index creation with ES's errors, and the same
 * analysis at index time (in the build workers) and at query time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType, expectEsError, ids, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const search = async (index: string, query: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const res = await t.request('POST', `/${index}/_search`, { query, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
};

describe('a custom analyzer', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/custom-a', {
      settings: {
        number_of_shards: 2,
        analysis: {
          char_filter: { emoticons: { type: 'mapping', mappings: [':) => _happy_', ':( => _sad_'] } },
          filter: {
            my_syn: { type: 'synonym', synonyms: ['laptop, notebook', 'tv => television'] },
            my_stop: { type: 'stop', stopwords: '_english_' },
          },
          analyzer: {
            rich: { type: 'custom', char_filter: ['html_strip', 'emoticons'], tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'my_stop', 'my_syn', 'porter_stem'] },
          },
        },
      },
      mappings: { properties: { body: { type: 'text', analyzer: 'rich' } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seed(t, 'custom-a', [
      ['1', { body: '<p>The <b>Café</b> sells notebooks :)</p>' }],
      ['2', { body: 'A TV for the living room' }],
      ['3', { body: 'Running shoes' }],
    ]);
  });

  it('indexes with its char filters, tokenizer and filters, and searches with the same analysis', async () => {
    expect(ids(await search('custom-a', { match: { body: 'cafe' } }))).toEqual(['1']);
    expect(ids(await search('custom-a', { match: { body: 'laptop' } }))).toEqual(['1']);
    expect(ids(await search('custom-a', { match: { body: '_happy_' } }))).toEqual(['1']);
    expect(ids(await search('custom-a', { match: { body: 'television' } }))).toEqual(['2']);
    expect(ids(await search('custom-a', { match: { body: 'run' } }))).toEqual(['3']);
    expect(ids(await search('custom-a', { match: { body: 'the' } }))).toEqual([]);
    expect(ids(await search('custom-a', { match_phrase: { body: 'living rooms' } }))).toEqual(['2']);
  });

  it('highlights with the field\'s custom analyzer, offsets in the original markup', async () => {
    const res = await search('custom-a', { match: { body: 'cafe' } }, { highlight: { fields: { body: {} } } });
    // Highlighting runs in a search worker, which rebuilds the index's analysis from its settings.
    expect(res.body.hits.hits[0].highlight.body[0]).toMatch(/^<p>The <b><em>Café/);
  });

  it('a term query is not analysed: it finds the indexed (stemmed) form only', async () => {
    expect(ids(await search('custom-a', { term: { body: 'running' } }))).toEqual([]);
    expect(ids(await search('custom-a', { term: { body: 'run' } }))).toEqual(['3']);
  });

  it('GET _settings shows the definitions, lists as lists', async () => {
    const res = await t.request('GET', '/custom-a/_settings');
    const analysis = res.body['custom-a'].settings.index.analysis;
    expect(analysis.analyzer.rich).toEqual({
      type: 'custom', char_filter: ['html_strip', 'emoticons'], tokenizer: 'standard', filter: ['lowercase', 'asciifolding', 'my_stop', 'my_syn', 'porter_stem'],
    });
    expect(analysis.filter.my_syn.synonyms).toEqual(['laptop, notebook', 'tv => television']);
    const flat = await t.request('GET', '/custom-a/_settings?flat_settings=true');
    expect(flat.body['custom-a'].settings['index.analysis.char_filter.emoticons.mappings']).toEqual([':) => _happy_', ':( => _sad_']);
  });

  it('analysis settings cannot change on an open index', async () => {
    const res = await t.request('PUT', '/custom-a/_settings', { index: { analysis: { analyzer: { rich: { tokenizer: 'whitespace' } } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('illegal_argument_exception');
    expect(res.body.error.reason).toMatch(/^Can't update non dynamic settings \[\[index\.analysis\.analyzer\.rich\.tokenizer\]\] for open indices/);
  });
});

describe('default analyzers and per-field search analyzers', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/custom-defaults', {
      settings: {
        analysis: {
          filter: { query_syn: { type: 'synonym_graph', synonyms: ['quick => fast'] } },
          analyzer: {
            default: { type: 'custom', tokenizer: 'whitespace', filter: ['lowercase'] },
            default_search: { type: 'custom', tokenizer: 'whitespace', filter: ['lowercase', 'query_syn'] },
            english_exclusions: { type: 'english', stem_exclusion: ['running'] },
            plain: { type: 'standard', stopwords: ['a', 'the'] },
          },
        },
      },
      mappings: {
        properties: {
          title: { type: 'text' },
          code: { type: 'text', analyzer: 'keyword', search_analyzer: 'standard' },
          prose: { type: 'text', analyzer: 'english_exclusions', search_quote_analyzer: 'plain' },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seed(t, 'custom-defaults', [
      ['1', { title: 'Fast Car', code: 'abc', prose: 'running dogs' }],
      ['2', { title: 'Slow-boat', code: 'ABC DEF', prose: 'the running of the dogs' }],
    ]);
  });

  it('fields without an analyzer index with `default` and search with `default_search`', async () => {
    expect(ids(await search('custom-defaults', { match: { title: 'QUICK' } }))).toEqual(['1']);
    // whitespace tokenizer: "slow-boat" is one token
    expect(ids(await search('custom-defaults', { match: { title: 'slow' } }))).toEqual([]);
    expect(ids(await search('custom-defaults', { match: { title: 'slow-boat' } }))).toEqual(['2']);
  });

  it('search_analyzer applies to queries only', async () => {
    // indexed whole ("abc", "ABC DEF"); the query is lowercased and split by `standard`
    expect(ids(await search('custom-defaults', { match: { code: 'ABC' } }))).toEqual(['1']);
  });

  it('english with stem_exclusion keeps the excluded word; the quote analyzer serves phrases', async () => {
    expect(ids(await search('custom-defaults', { term: { prose: 'running' } })).sort()).toEqual(['1', '2']);
    expect(ids(await search('custom-defaults', { term: { prose: 'dog' } })).sort()).toEqual(['1', '2']);
    // phrase text analysed by `plain` (no stemming): "running dogs" → running, dogs; "dogs" was indexed as "dog"
    expect(ids(await search('custom-defaults', { match_phrase: { prose: 'running dog' } }))).toEqual(['1']);
  });
});

describe('normalizers', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/custom-norm', {
      settings: { analysis: { normalizer: { folded: { type: 'custom', char_filter: [], filter: ['lowercase', 'asciifolding'] } } } },
      mappings: { properties: { tag: { type: 'keyword', normalizer: 'folded' }, raw: { type: 'keyword', normalizer: 'lowercase' } } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await seed(t, 'custom-norm', [['1', { tag: 'Élan', raw: 'MiXeD' }], ['2', { tag: 'ELAN', raw: 'other' }]]);
  });

  it('normalizes indexed values and query terms alike (term, terms, match), and aggregates normalized values', async () => {
    expect(ids(await search('custom-norm', { term: { tag: 'elan' } })).sort()).toEqual(['1', '2']);
    expect(ids(await search('custom-norm', { terms: { tag: ['ÉLAN'] } })).sort()).toEqual(['1', '2']);
    expect(ids(await search('custom-norm', { match: { raw: 'mixed' } }))).toEqual(['1']);
    const aggs = await search('custom-norm', { match_all: {} }, { size: 0, aggs: { tags: { terms: { field: 'tag' } } } });
    expect(aggs.body.aggregations.tags.buckets).toEqual([{ key: 'elan', doc_count: 2 }]);
  });

  it('normalizes prefix, wildcard (literal chunks only) and range bounds; regexp stays as given', async () => {
    expect(ids(await search('custom-norm', { prefix: { tag: 'ÉL' } })).sort()).toEqual(['1', '2']);
    expect(ids(await search('custom-norm', { wildcard: { raw: { value: 'MI?E*' } } }))).toEqual(['1']);
    expect(ids(await search('custom-norm', { wildcard: { tag: 'É*N' } })).sort()).toEqual(['1', '2']);
    expect(ids(await search('custom-norm', { range: { raw: { gte: 'M', lt: 'N' } } }))).toEqual(['1']);
    expect(ids(await search('custom-norm', { regexp: { raw: 'MI.*' } }))).toEqual([]);
    expect(ids(await search('custom-norm', { query_string: { query: 'raw:MIX*' } }))).toEqual(['1']);
  });
});

describe('errors at index creation', () => {
  const create = (name: string, body: Record<string, unknown>) => t.request('PUT', `/${name}`, body);
  const analysis = (a: Record<string, unknown>) => ({ settings: { analysis: a } });

  it('refuses unknown types and missing or unknown components with ES\'s messages', async () => {
    expectEsError(await create('bad-1', analysis({ filter: { my_filter: { type: 'nope' } } })), 400, 'illegal_argument_exception',
      'Unknown filter type [nope] for [my_filter]');
    expectEsError(await create('bad-2', analysis({ analyzer: { a: { type: 'custom', filter: ['lowercase'] } } })), 400, 'illegal_argument_exception',
      'Custom Analyzer [a] must be configured with a tokenizer');
    expectEsError(await create('bad-3', analysis({ analyzer: { a: { tokenizer: 'nope' } } })), 400, 'illegal_argument_exception',
      'Custom Analyzer [a] failed to find tokenizer under name [nope]');
    expectEsError(await create('bad-4', analysis({ analyzer: { a: { tokenizer: 'standard', filter: ['nope'] } } })), 400, 'illegal_argument_exception',
      'Custom Analyzer [a] failed to find filter under name [nope]');
    expectEsError(await create('bad-5', analysis({ analyzer: { a: { type: 'nope' } } })), 400, 'illegal_argument_exception',
      'Unknown analyzer type [nope] for [a]');
    expectEsError(await create('bad-6', analysis({ tokenizer: { t: { min_gram: 1 } } })), 400, 'illegal_argument_exception',
      'tokenizer [t] must specify either an analyzer type, or a tokenizer');
    expectEsError(await create('bad-7', analysis({ tokenizer: { t: { type: 'ngram', min_gram: 1, max_gram: 3 } } })), 400, 'illegal_argument_exception',
      'The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [2]. This limit can be set by changing the [index.max_ngram_diff] index level setting.');
    expect((await create('ok-7', { settings: { max_ngram_diff: 2, analysis: { tokenizer: { t: { type: 'ngram', min_gram: 1, max_gram: 3 } } } } })).status).toBe(200);
    expectEsError(await create('bad-8', analysis({ normalizer: { n: { filter: ['stemmer'] } } })), 400, 'illegal_argument_exception',
      'Custom normalizer [n] may not use filter [stemmer]');
    expectEsError(await create('bad-9', analysis({ filter: { s: { type: 'synonym', synonyms_path: 'analysis/syn.txt' } } })), 400, 'illegal_argument_exception',
      '[synonyms_path] is not supported by this server: give the list inline instead (filter [s])');
    const stopped = await create('bad-10', analysis({ filter: { s: { type: 'synonym', synonyms: ['the => a'] } }, analyzer: { a: { tokenizer: 'standard', filter: ['stop', 's'] } } }));
    expect(stopped.status).toBe(400);
    expect(stopped.body.error.reason).toMatch(/^failed to build synonyms: Invalid synonym rule at line 1: term: the was completely eliminated by analyzer/);
    expect((await create('ok-10', analysis({ filter: { s: { type: 'synonym', lenient: true, synonyms: ['the => a', 'x => y'] } }, analyzer: { a: { tokenizer: 'standard', filter: ['stop', 's'] } } }))).status).toBe(200);
    for (const name of ['bad-1', 'bad-2', 'bad-3', 'bad-9', 'bad-10']) expect((await t.request('HEAD', `/${name}`)).status).toBe(404);
  });

  it('refuses mappings naming analyzers, normalizers or similarities the index does not have', async () => {
    // ES wraps the mapper's error: `Failed to parse mapping: …` caused by it.
    expectErrorType(await create('bad-m1', { mappings: { properties: { f: { type: 'text', analyzer: 'nope' } } } }), 400, 'mapper_parsing_exception',
      'Failed to parse mapping: analyzer [nope] has not been configured in mappings');
    expectErrorType(await create('bad-m2', { mappings: { properties: { f: { type: 'keyword', normalizer: 'nope' } } } }), 400, 'mapper_parsing_exception',
      'Failed to parse mapping: normalizer [nope] not found for field [f]');
    expectErrorType(await create('bad-m3', { mappings: { properties: { f: { type: 'text', similarity: 'nope' } } } }), 400, 'mapper_parsing_exception',
      'Failed to parse mapping: Unknown Similarity type [nope] for field [f]');
    await create('later-m', { settings: { analysis: { analyzer: { mine: { tokenizer: 'whitespace' } } } } });
    expect((await t.request('PUT', '/later-m/_mapping', { properties: { f: { type: 'text', analyzer: 'mine' } } })).status).toBe(200);
    expectEsError(await t.request('PUT', '/later-m/_mapping', { properties: { g: { type: 'text', search_analyzer: 'nope' } } }), 400, 'mapper_parsing_exception',
      'analyzer [nope] has not been configured in mappings');
  });
});

describe('durability', () => {
  it('an index keeps its analysis after a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-analysis-'));
    try {
      let node = await createTestApp({ dataDir });
      await node.request('PUT', '/kept', {
        settings: { analysis: { filter: { syn: { type: 'synonym', synonyms: ['tv, television'] } }, analyzer: { default: { tokenizer: 'standard', filter: ['lowercase', 'syn'] } } } },
      });
      await seed(node, 'kept', [['1', { f: 'Television' }]]);
      await node.close();
      node = await createTestApp({ dataDir });
      const res = await node.request('POST', '/kept/_search', { query: { match: { f: 'TV' } } });
      expect(ids(res)).toEqual(['1']);
      await node.request('POST', '/kept/_doc/2?refresh=true', { f: 'tv stand' });
      expect(ids(await node.request('POST', '/kept/_search', { query: { match: { f: 'television' } } })).sort()).toEqual(['1', '2']);
      await node.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
