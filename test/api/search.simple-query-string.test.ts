/**
 * `simple_query_string`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/query-dsl-simple-query-string-query.html
 * ES builds it with SimpleQueryStringQueryParser over Lucene's SimpleQueryParser: a term is a
 * most_fields multi_match (fields summed), a phrase a phrase multi_match (best field), `x~N` a fuzzy
 * query, `x*` a constant-score prefix query; operators build the boolean tree left to right. Its
 * syntax never fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { bm25, ids, queryRunner, scores, seed } from './es.js';
import { createShortTitleIndices, SHORT_TITLE_STATS, SHORT_TITLES } from './short-titles-fixture.js';

let t: TestApp;

/** The short titles, each with a `body` for the multi-field cases. */
const BODIES = ['a fox in the woods', 'quick quick', 'war and peace', 'brown brown bread', 'coffee', 'the dog sleeps'];
const DOCS = SHORT_TITLES.map(([id, d], i): [string, Record<string, unknown>] => [id, { ...d, body: BODIES[i] }]);
const TITLE = SHORT_TITLE_STATS;

beforeAll(async () => {
  t = await createTestApp();
  await createShortTitleIndices(t, DOCS, { body: { type: 'text' } });
  await t.request('PUT', '/quotes', {
    mappings: { properties: { title: { type: 'text', fields: { exact: { type: 'text', analyzer: 'whitespace' } } } } },
  });
  await seed(t, 'quotes', [['1', { title: 'Quick fox' }], ['2', { title: 'quick fox' }]]);
  await t.request('PUT', '/folded', {
    settings: { analysis: { analyzer: { folding: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } } },
    mappings: { properties: { title: { type: 'text', analyzer: 'folding' }, tag: { type: 'keyword', normalizer: 'lowercase' } } },
  });
  await seed(t, 'folded', [['1', { title: 'Café crème', tag: 'Café' }], ['2', { title: 'cafeteria', tag: 'tea' }]]);
});
afterAll(async () => t.close());

const { search, q, hitIds } = queryRunner(() => t);
const sqs = (query: string, options: Record<string, unknown> = {}) => ({ simple_query_string: { query, fields: ['title'], ...options } });

/** Same hits, same order, same scores (to float precision). */
async function expectSame(query: unknown, equivalent: unknown, index = 'books') {
  const [a, b] = [await q(query, index), await q(equivalent, index)];
  expect(ids(a)).toEqual(ids(b));
  const [sa, sb] = [scores(a), scores(b)];
  for (const id of Object.keys(sb)) expect(sa[id]).toBeCloseTo(sb[id], 5);
  return a;
}

function expectShardFailure(res: TestResponse, reason: string | RegExp) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe('search_phase_execution_exception');
  expect(res.body.error.root_cause[0].type).toBe('query_shard_exception');
  if (typeof reason === 'string') expect(res.body.error.root_cause[0].reason).toBe(reason);
  else expect(res.body.error.root_cause[0].reason).toMatch(reason);
}

function expectError(res: TestResponse, type: string, reason: string) {
  expect(res.status).toBe(400);
  expect(res.body.error.type).toBe(type);
  expect(res.body.error.reason).toBe(reason);
  expect(res.body.error.root_cause[0]).toMatchObject({ type, reason });
}

const match = (field: string, query: string) => ({ match: { [field]: query } });
const not = (query: unknown) => ({ bool: { must_not: [query], should: [{ match_all: {} }] } });

describe('terms', () => {
  it('one term on one field is the match query: exact BM25', async () => {
    const res = await expectSame(sqs('quick'), match('title', 'quick'));
    expect(new Set(ids(res))).toEqual(new Set(['1', '2', '3']));
    expect(scores(res)['1']).toBeCloseTo(bm25({ ...TITLE, docFreq: 3, freq: 1, dl: 4 }), 5);
    expect(scores(res)['3']).toBeCloseTo(bm25({ ...TITLE, docFreq: 3, freq: 1, dl: 6 }), 5);
  });

  it('whitespace is default_operator: or (default) and and', async () => {
    await expectSame(sqs('quick brown'), { bool: { should: [match('title', 'quick'), match('title', 'brown')] } });
    await expectSame(sqs('quick brown', { default_operator: 'and' }), { bool: { must: [match('title', 'quick'), match('title', 'brown')] } });
    await expectSame(sqs('quick brown', { default_operator: 'AND' }), sqs('quick +brown'));
  });

  it('a term the analyzer splits is one match query with the default operator', async () => {
    await expectSame(sqs('quick-brown', { default_operator: 'and' }), { match: { title: { query: 'quick brown', operator: 'and' } } });
    await expectSame(sqs('quick-brown'), match('title', 'quick brown'));
  });

  it('stop words and punctuation are no clause (not a clause that matches nothing)', async () => {
    const res = await q({ simple_query_string: { query: 'quick !!! ...', fields: ['title'], default_operator: 'and', analyzer: 'stop' } });
    expect(new Set(ids(res))).toEqual(new Set(['1', '2', '3']));
    await expectSame(sqs('quick ... ,', { default_operator: 'and' }), match('title', 'quick'));
  });

  it('several fields: most_fields, the fields summed; ^boost', async () => {
    await expectSame({ simple_query_string: { query: 'quick fox', fields: ['title', 'body'] } },
      { bool: { should: [{ multi_match: { query: 'quick', fields: ['title', 'body'], type: 'most_fields' } }, { multi_match: { query: 'fox', fields: ['title', 'body'], type: 'most_fields' } }] } });
    const res = await expectSame({ simple_query_string: { query: 'brown', fields: ['title^2', 'body'] } },
      { bool: { should: [{ match: { title: { query: 'brown', boost: 2 } } }, match('body', 'brown')] } });
    expect(ids(res)[0]).toBe('4');
  });

  it('field wildcards', async () => {
    await expectSame({ simple_query_string: { query: 'fox', fields: ['t*', 'bod?'] } }, { simple_query_string: { query: 'fox', fields: ['title'] } });
    await expectSame({ simple_query_string: { query: 'fox', fields: ['*dy', 'title'] } }, { simple_query_string: { query: 'fox', fields: ['title', 'body'] } });
  });

  it('without fields: index.query.default_field (*), lenient: a number finds the long field', async () => {
    expect(await hitIds({ simple_query_string: { query: '20' } })).toEqual(['2']);
    expect(await hitIds({ simple_query_string: { query: '20', fields: [] } })).toEqual(['2']); // [] is no list
    expect(new Set(await hitIds({ simple_query_string: { query: 'war' } }))).toEqual(new Set(['3']));
    expect(new Set(await hitIds({ simple_query_string: { query: 'food | qui*' } }))).toEqual(new Set(['1', '2', '3', '4', '5']));
  });

  it('boost multiplies every score; _name is accepted', async () => {
    const [a, b] = [await q(sqs('quick -brown')), await q(sqs('quick -brown', { boost: 3, _name: 'box' }))];
    expect(ids(b)).toEqual(ids(a));
    for (const id of ids(a)) expect(scores(b)[id]).toBeCloseTo(3 * scores(a)[id], 5);
  });

  it('the same on three shards', async () => {
    expect(new Set(await hitIds(sqs('quick -brown | "lazy brown"'), 'books3'))).toEqual(new Set(await hitIds(sqs('quick -brown | "lazy brown"'))));
  });
});

describe('operators', () => {
  it('+ is AND, | is OR', async () => {
    await expectSame(sqs('quick +brown'), { bool: { must: [match('title', 'quick'), match('title', 'brown')] } });
    await expectSame(sqs('quick | brown', { default_operator: 'and' }), { bool: { should: [match('title', 'quick'), match('title', 'brown')] } });
    await expectSame(sqs('quick|brown+fox'), { bool: { must: [{ bool: { should: [match('title', 'quick'), match('title', 'brown')] } }, match('title', 'fox')] } });
  });

  it('the tree is built left to right: a new operator makes what precedes one clause', async () => {
    // fox | lazy +brown = +(fox | lazy) +brown
    await expectSame(sqs('fox | lazy +brown'), { bool: { must: [{ bool: { should: [match('title', 'fox'), match('title', 'lazy')] } }, match('title', 'brown')] } });
    // brown +fox | lazy = (+brown +fox) | lazy
    await expectSame(sqs('brown +fox | lazy'), { bool: { should: [{ bool: { must: [match('title', 'brown'), match('title', 'fox')] } }, match('title', 'lazy')] } });
  });

  it('( ) groups', async () => {
    await expectSame(sqs('brown +(fox | lazy)'), { bool: { must: [match('title', 'brown'), { bool: { should: [match('title', 'fox'), match('title', 'lazy')] } }] } });
    await expectSame(sqs('((quick))'), match('title', 'quick'));
  });

  it('- is NOT: must_not plus a match_all should (so `quick -brown` with or finds everything without brown)', async () => {
    const res = await expectSame(sqs('-brown'), not(match('title', 'brown')));
    expect(new Set(ids(res))).toEqual(new Set(['3', '5']));
    expect(scores(res)).toEqual({ 3: 1, 5: 1 });
    await expectSame(sqs('quick -brown'), { bool: { should: [match('title', 'quick'), not(match('title', 'brown'))] } });
    await expectSame(sqs('quick -brown', { default_operator: 'and' }), { bool: { must: [match('title', 'quick'), not(match('title', 'brown'))] } });
    await expectSame(sqs('--brown'), match('title', 'brown'));
    await expectSame(sqs('-(brown | quick)'), not({ bool: { should: [match('title', 'brown'), match('title', 'quick')] } }));
  });

  it('"…" is a phrase, ~N after it the slop; several fields: the best field', async () => {
    await expectSame(sqs('"quick brown"'), { match_phrase: { title: 'quick brown' } });
    expect(await hitIds(sqs('"quick fox"'))).toEqual([]);
    await expectSame(sqs('"quick fox"~1'), { match_phrase: { title: { query: 'quick fox', slop: 1 } } });
    await expectSame(sqs('"quick fox"~'), { match_phrase: { title: 'quick fox' } }); // nothing after ~: no slop
    // Something after ~ but no number: slop 2 (and, as in Lucene, the character that ends it is skipped).
    await expectSame(sqs('"quick fox"~ lazy'), { bool: { should: [{ match_phrase: { title: { query: 'quick fox', slop: 2 } } }, match('title', 'lazy')] } });
    await expectSame(sqs('"quick fox"~1|lazy'), { bool: { should: [{ match_phrase: { title: { query: 'quick fox', slop: 1 } } }, match('title', 'lazy')] } });
    await expectSame(sqs('"quick fox"~1|lazy', { default_operator: 'and' }), { bool: { must: [{ match_phrase: { title: { query: 'quick fox', slop: 1 } } }, match('title', 'lazy')] } });
    await expectSame({ simple_query_string: { query: '"brown bread"', fields: ['title', 'body'] } },
      { multi_match: { query: 'brown bread', fields: ['title', 'body'], type: 'phrase' } });
  });

  it('* at the end of a term is a constant-score prefix query, per field summed', async () => {
    const res = await q(sqs('qui*'));
    expect(scores(res)).toEqual({ 1: 1, 2: 1, 3: 1, 5: 1 });
    await expectSame(sqs('qui*', { boost: 2 }), { prefix: { title: { value: 'qui', boost: 2 } } });
    await expectSame(sqs('QUI*'), { prefix: { title: 'qui' } }); // normalised like the analyzer
    const multi = await q({ simple_query_string: { query: 'bro*', fields: ['title', 'body^3'] } });
    expect(scores(multi)['4']).toBe(4);
    expect(scores(multi)['1']).toBe(1);
    await expectSame(sqs('*quick'), match('title', 'quick')); // a leading * is no operator: the term "*quick"
    await expectSame(sqs('qui**'), { prefix: { title: 'qui*' } }); // only the last * is the operator
  });

  it('~N after a term is a fuzzy query (N ≤ 2; no number: 2; 0: the term)', async () => {
    await expectSame(sqs('quikc~1'), { fuzzy: { title: { value: 'quikc', fuzziness: 1 } } });
    await expectSame(sqs('quikc~'), { fuzzy: { title: { value: 'quikc', fuzziness: 2 } } });
    await expectSame(sqs('quikc~7'), { fuzzy: { title: { value: 'quikc', fuzziness: 2 } } });
    await expectSame(sqs('Quick~0'), match('title', 'quick'));
    await expectSame(sqs('brwn~1', { fuzzy_prefix_length: 2, fuzzy_max_expansions: 1, fuzzy_transpositions: false }),
      { fuzzy: { title: { value: 'brwn', fuzziness: 1, prefix_length: 2, max_expansions: 1, transpositions: false } } });
    await expectSame(sqs('borwn~1', { fuzzy_transpositions: false }), { fuzzy: { title: { value: 'borwn', fuzziness: 1, transpositions: false } } });
    expect(await hitIds(sqs('borwn~1', { fuzzy_transpositions: false }))).toEqual([]);
    expectShardFailure(await search({ query: sqs('brwn~1', { fuzzy_max_expansions: 0 }) }), 'failed to create query: maxExpansions must be positive.');
    expectShardFailure(await search({ query: sqs('brwn~1', { fuzzy_prefix_length: -1 }) }), 'failed to create query: prefixLength cannot be negative.');
    expect(await hitIds(sqs('brwn~1', { fuzzy_max_expansions: 0, lenient: true }))).toEqual([]);
    expect((await hitIds(sqs('brown', { fuzzy_max_expansions: 0 }))).length).toBe(4); // only fuzzy terms check them
    await expectSame(sqs('fxo~1 +brown'), { bool: { must: [{ fuzzy: { title: { value: 'fxo', fuzziness: 1 } } }, match('title', 'brown')] } });
  });

  it('\\ escapes an operator', async () => {
    await expectSame(sqs('\\-brown'), match('title', 'brown'));
    await expectSame(sqs('quick \\+brown', { default_operator: 'and' }), { bool: { must: [{ match: { title: { query: 'quick', operator: 'and' } } }, { match: { title: { query: 'brown', operator: 'and' } } }] } });
    expect(await hitIds(sqs('qui\\*'))).toEqual([]); // a term "qui*", not a prefix
  });

  it('minimum_should_match applies to the top boolean query', async () => {
    await expectSame(sqs('quick brown fox', { minimum_should_match: 2 }),
      { bool: { should: [match('title', 'quick'), match('title', 'brown'), match('title', 'fox')], minimum_should_match: 2 } });
    await expectSame(sqs('quick brown fox', { minimum_should_match: '100%' }),
      { bool: { must: [match('title', 'quick'), match('title', 'brown'), match('title', 'fox')] } });
    // One field and no whitespace operator: the field's own boolean query takes it.
    await expectSame(sqs('quick brown fox', { minimum_should_match: 2, flags: 'NONE' }), { match: { title: { query: 'quick brown fox', minimum_should_match: 2 } } });
  });
});

describe('flags', () => {
  it('NONE (or 0) turns every operator off: the text is one term', async () => {
    await expectSame(sqs('quick -brown', { flags: 'NONE' }), match('title', 'quick brown'));
    await expectSame(sqs('quick -brown', { flags: 0 }), match('title', 'quick brown'));
    await expectSame(sqs('quick -brown', { flags: 'ALL' }), sqs('quick -brown'));
    await expectSame(sqs('quick -brown', { flags: -7 }), sqs('quick -brown'));
    await expectSame(sqs('quick -brown', { flags: '' }), sqs('quick -brown'));
  });

  it('each flag enables one operator; names are |-joined and case-insensitive', async () => {
    await expectSame(sqs('quick -brown', { flags: 'WHITESPACE' }), { bool: { should: [match('title', 'quick'), match('title', 'brown')] } });
    await expectSame(sqs('quick -brown', { flags: 'whitespace|not' }), sqs('quick -brown'));
    await expectSame(sqs('quick +brown', { flags: 'WHITESPACE|OR' }), sqs('quick brown'));
    await expectSame(sqs('quick +brown', { flags: 'WHITESPACE|AND' }), sqs('quick +brown'));
    await expectSame(sqs('quick|brown', { flags: 'AND', default_operator: 'and' }), { match: { title: { query: 'quick brown', operator: 'and' } } });
    await expectSame(sqs('quick|brown', { flags: 'OR', default_operator: 'and' }), sqs('quick brown'));
    expect(await hitIds(sqs('qui*', { flags: 'WHITESPACE' }))).toEqual([]);
    expect((await hitIds(sqs('qui*', { flags: 'PREFIX' }))).length).toBe(4);
    await expectSame(sqs('"quick fox"', { flags: 'WHITESPACE' }), sqs('quick fox'));
    await expectSame(sqs('"quick brown"', { flags: 'PHRASE' }), { match_phrase: { title: 'quick brown' } });
    await expectSame(sqs('"quick fox"~1', { flags: 'PHRASE|WHITESPACE' }), sqs('"quick fox" 1'));
    await expectSame(sqs('"quick fox"~1', { flags: 'PHRASE|NEAR' }), sqs('"quick fox"~1'));
    await expectSame(sqs('"quick fox"~1', { flags: 'PHRASE|SLOP' }), sqs('"quick fox"~1'));
    await expectSame(sqs('quikc~1', { flags: 'WHITESPACE' }), sqs('quikc 1'));
    await expectSame(sqs('quikc~1', { flags: 'FUZZY' }), sqs('quikc~1'));
    await expectSame(sqs('brown +(fox | lazy)', { flags: 'WHITESPACE|AND|OR' }), sqs('brown +fox | lazy'));
    await expectSame(sqs('brown +(fox | lazy)', { flags: 'WHITESPACE|AND|OR|PRECEDENCE' }), sqs('brown +(fox | lazy)'));
    // ESCAPE off: `\` is an ordinary character, so `+` is AND again.
    await expectSame(sqs('quick \\+brown', { flags: 'WHITESPACE|AND' }), sqs('quick +brown'));
  });

  it('an unknown flag is an error', async () => {
    expectError(await search({ query: sqs('x', { flags: 'AND|FOO' }) }), 'illegal_argument_exception', 'Unknown simple_query_string flag [FOO]');
    expectError(await search({ query: sqs('x', { flags: 'AND | OR' }) }), 'illegal_argument_exception', 'Unknown simple_query_string flag [AND ]');
  });
});

describe('malformed and hostile input never fails', () => {
  const HOSTILE = [
    '', ' ', '\t\n', '"', '""', '"""', '(', ')', '()', ')(', '+', '-', '|', '~', '*', '**', '\\', '\\\\', '"~', '"a"~', '"a b"~x', '"a b"~-3',
    'a~', 'a~b', 'a~-1', 'a~99999999999999999999', '~a', '+-|~*"()\\', 'quick~~~2', '|||quick|||', '+++quick+++', '---', '-"quick brown"',
    'AND OR NOT', 'title:quick', '[1 TO 5]', '{a TO b}', '/qu.*/', 'qu?ck', 'quick^2', '&&', '!quick', 'fo"o', 'quick brown"', '(quick',
    'quick)', '((quick) | (brown', '"unclosed (paren', 'a\\', '😀 quick 😀', '\u0000\u0001', 'ÄÖÜ äöü ß', '*:*', '"*"', ' * ',
    '('.repeat(3000) + 'quick' + ')'.repeat(3000), '('.repeat(20000), ')'.repeat(20000), '"'.repeat(5001), '-'.repeat(10000) + 'quick',
    'quick '.repeat(1000), 'x~'.repeat(2000), '\\('.repeat(5000) + ')', 'quick +brown |'.repeat(400), '-('.repeat(2000) + 'quick',
  ];
  it.each(HOSTILE.map((s) => [s.length > 40 ? `${s.slice(0, 20)}… (${s.length} chars)` : JSON.stringify(s), s]))('%s', async (_name, text) => {
    for (const fields of [['title'], ['title', 'body', 'tag', 'price'], undefined]) {
      const res = await search({ query: { simple_query_string: { query: text, ...(fields ? { fields, lenient: true } : {}) } } });
      expect(res.status).toBe(200);
    }
  });

  it('bounds what one text may build: the clause limit on terms, query_string\'s 1,000 levels on nesting', async () => {
    // Each change of operator nests the tree one level deeper, as Lucene builds it; so does each `-(`.
    for (const text of ['quick +brown |'.repeat(600), 'a +b |'.repeat(2040), '-('.repeat(100_000) + 'quick' + ')'.repeat(100_000)]) {
      const res = await search({ query: { simple_query_string: { query: text, fields: ['title'] } } });
      expect(res.status).toBe(400);
      expect(res.body.error.root_cause[0].reason).toMatch(/^Query nesting depth \(1001\) exceeds the maximum allowed \(1000\)$/);
    }
    const many = await search({ query: { simple_query_string: { query: 'a '.repeat(40_000), fields: ['title'] } } });
    expect(many.status).toBe(400);
    expect(many.body.error.root_cause[0].reason).toBe('Query rewrite failed: too many clauses');
  });

  it('what they mean: nothing, everything, or the terms that remain', async () => {
    expect(await hitIds(sqs(''))).toEqual([]);
    expect(await hitIds(sqs('   '))).toEqual([]);
    expect((await hitIds(sqs(' * '))).length).toBe(6);
    expect((await hitIds({ simple_query_string: { query: '*' } })).length).toBe(6);
    await expectSame(sqs('(quick'), match('title', 'quick')); // the unclosed parenthesis is ignored
    await expectSame(sqs('"quick'), match('title', 'quick')); // so is an unclosed quote
    await expectSame(sqs('quick)'), match('title', 'quick'));
    await expectSame(sqs('+quick'), match('title', 'quick')); // nothing to AND with
    await expectSame(sqs('quick +| brown', { default_operator: 'and' }), sqs('quick +brown')); // the first pending operator wins
    await expectSame(sqs('quick |() brown', { default_operator: 'and' }), sqs('quick +brown')); // () drops the pending operator
    await expectSame(sqs('quick -'), match('title', 'quick'));
    await expectSame(sqs('quick~x'), match('title', 'quick'));
    await expectSame(sqs('(((quick)))' + ')'.repeat(50)), match('title', 'quick'));
    await expectSame(sqs('('.repeat(3000) + 'quick' + ')'.repeat(3000)), match('title', 'quick'));
  });

  it('a term a field cannot take fails the search unless lenient (implied by *)', async () => {
    expectShardFailure(await search({ query: { simple_query_string: { query: 'abc', fields: ['price'] } } }), /^failed to create query: /);
    expectShardFailure(await search({ query: { simple_query_string: { query: 'ab*', fields: ['price'] } } }), /^Can only use prefix queries on keyword and text fields/);
    expect(await hitIds({ simple_query_string: { query: 'abc', fields: ['price'], lenient: true } })).toEqual([]);
    expect(await hitIds({ simple_query_string: { query: 'quick 10', fields: ['title', 'price'], lenient: true } })).toEqual(expect.arrayContaining(['1', '2', '3']));
    expect((await search({ query: { simple_query_string: { query: 'abc', fields: ['*'] } } })).status).toBe(200);
    expectShardFailure(await search({ query: { simple_query_string: { query: 'abc', fields: ['*'], lenient: false } } }), /^failed to create query: /);
  });

  it('unmapped fields match nothing; NOT of nothing is everything', async () => {
    expect(await hitIds({ simple_query_string: { query: 'quick qu* "a b" quikc~1', fields: ['nope'] } })).toEqual([]);
    expect((await hitIds({ simple_query_string: { query: '-quick', fields: ['nope'] } })).length).toBe(6);
  });
});

describe('options', () => {
  it('quote_field_suffix: phrases search field + suffix where it is mapped', async () => {
    expect(await hitIds({ simple_query_string: { query: '"Quick"', fields: ['title'], quote_field_suffix: '.exact' } }, 'quotes')).toEqual(['1']);
    expect(new Set(await hitIds({ simple_query_string: { query: 'Quick', fields: ['title'], quote_field_suffix: '.exact' } }, 'quotes'))).toEqual(new Set(['1', '2']));
    expect(new Set(await hitIds({ simple_query_string: { query: '"Quick"', fields: ['title'], quote_field_suffix: '.none' } }, 'quotes'))).toEqual(new Set(['1', '2']));
  });

  it('analyze_wildcard: the prefix text is analysed, the last term a prefix', async () => {
    expect(await hitIds(sqs('brown-fo*'))).toEqual([]);
    await expectSame(sqs('brown-fo*', { analyze_wildcard: true }), { match_bool_prefix: { title: 'brown fo' } });
    await expectSame(sqs('brown-fo*', { analyze_wildcard: true, default_operator: 'and' }), { match_bool_prefix: { title: { query: 'brown fo', operator: 'and' } } });
  });

  it('analyzer replaces the fields\' search analyzer', async () => {
    expect(await hitIds(sqs('quick-brown', { analyzer: 'whitespace' }))).toEqual([]);
    await expectSame(sqs('quick-brown fox', { analyzer: 'whitespace' }), { bool: { should: [{ match: { title: { query: 'quick-brown', analyzer: 'whitespace' } } }, match('title', 'fox')] } });
    expectShardFailure(await search({ query: sqs('x', { analyzer: 'nope' }) }), '[simple_query_string] analyzer [nope] not found');
  });

  it('prefix and fuzzy terms are normalised by the analyzer\'s normalizing filters (Analyzer.normalize), keyword terms by the normalizer', async () => {
    expect(await hitIds({ simple_query_string: { query: 'CAFÉ*', fields: ['title'] } }, 'folded')).toEqual(expect.arrayContaining(['1', '2']));
    expect(await hitIds({ simple_query_string: { query: 'CRÉM~1', fields: ['title'] } }, 'folded')).toEqual(['1']);
    expect(await hitIds({ simple_query_string: { query: 'CAF*', fields: ['tag'] } }, 'folded')).toEqual(['1']);
    expect(await hitIds({ simple_query_string: { query: 'TEE~1', fields: ['tag'] } }, 'folded')).toEqual(['2']);
  });

  it('auto_generate_synonyms_phrase_query is accepted', async () => {
    await expectSame(sqs('quick', { auto_generate_synonyms_phrase_query: false }), sqs('quick'));
  });
});

describe('request errors', () => {
  it('ES\'s parsing errors', async () => {
    expectError(await search({ query: { simple_query_string: { fields: ['title'] } } }), 'parsing_exception', '[simple_query_string] query text missing');
    expectError(await search({ query: { simple_query_string: { query: 'x', foo: 1 } } }), 'parsing_exception', '[simple_query_string] unsupported field [foo]');
    expectError(await search({ query: { simple_query_string: { query: 'x', fuzziness: 1 } } }), 'parsing_exception', '[simple_query_string] unsupported field [fuzziness]');
    expectError(await search({ query: { simple_query_string: { query: ['x'] } } }), 'parsing_exception', '[simple_query_string] query does not support [query]');
    expectError(await search({ query: { simple_query_string: { query: 'x', fields: { title: 1 } } } }), 'parsing_exception', '[simple_query_string] unknown token [START_OBJECT] after [fields]');
    expectError(await search({ query: { simple_query_string: { query: 'x', fields: 'title' } } }), 'parsing_exception', '[simple_query_string] unsupported field [fields]');
    expectError(await search({ query: { simple_query_string: { query: 'x', minimum_should_match: null } } }), 'parsing_exception', '[simple_query_string] unknown token [VALUE_NULL] after [minimum_should_match]');
    expectError(await search({ query: { simple_query_string: { query: 'x', default_operator: 'xor' } } }), 'illegal_argument_exception', 'No enum constant org.elasticsearch.index.query.Operator.XOR');
    // Long values are quoted as their first 100 characters (previewInput), not echoed whole.
    expectError(await search({ query: { simple_query_string: { query: 'x', default_operator: 'x'.repeat(5000) } } }), 'illegal_argument_exception', `No enum constant org.elasticsearch.index.query.Operator.${'X'.repeat(100)}...`);
    expectError(await search({ query: sqs('x', { flags: 'y'.repeat(5000) }) }), 'illegal_argument_exception', `Unknown simple_query_string flag [${'y'.repeat(100)}...]`);
    expect((await search({ query: { simple_query_string: 'x' } })).status).toBe(400);
  });
});
