/**
 * The regex analysis components over REST — analysis-pattern-tokenizer.html,
 * analysis-pattern-analyzer.html, analysis-pattern-replace-charfilter.html,
 * analysis-pattern_replace-tokenfilter.html: `_analyze` with inline definitions, an index that
 * indexes and searches with them, and ES-shaped 400s for bad patterns and refused Java features.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError, ids, seed } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('pattern components', () => {
  it('_analyze runs an inline pattern tokenizer with a group, and the prebuilt pattern analyzer', async () => {
    const res = await t.request('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: '"((?:\\\\"|[^"]|\\\\")+)"', group: 1 }, text: '"value", "value with embedded \\" quote"' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tokens).toEqual([
      { token: 'value', start_offset: 1, end_offset: 6, type: 'word', position: 0 },
      { token: 'value with embedded \\" quote', start_offset: 10, end_offset: 38, type: 'word', position: 1 },
    ]);
    const pattern = await t.request('POST', '/_analyze', { analyzer: 'pattern', text: 'John_Smith@foo-bar.com' });
    expect(pattern.body.tokens.map((x: { token: string }) => x.token)).toEqual(['john_smith', 'foo', 'bar', 'com']);
  });

  it('indexes and searches with a pattern_replace char filter and a pattern analyzer', async () => {
    const created = await t.request('PUT', '/pattern-a', {
      settings: {
        analysis: {
          char_filter: { cc: { type: 'pattern_replace', pattern: '(\\d+)-(?=\\d)', replacement: '$1_' } },
          analyzer: {
            cards: { tokenizer: 'standard', char_filter: ['cc'] },
            email: { type: 'pattern', pattern: '\\W|_', lowercase: true },
          },
        },
      },
      mappings: { properties: { card: { type: 'text', analyzer: 'cards' }, mail: { type: 'text', analyzer: 'email' } } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await seed(t, 'pattern-a', [['1', { card: 'My credit card is 123-456-789', mail: 'John_Smith@foo-bar.com' }], ['2', { card: 'no 123 here', mail: 'jane@example.org' }]]);
    const card = await t.request('POST', '/pattern-a/_search', { query: { match: { card: '123-456-789' } } });
    expect(ids(card)).toEqual(['1']);
    const mail = await t.request('POST', '/pattern-a/_search', { query: { match: { mail: 'SMITH' } } });
    expect(ids(mail)).toEqual(['1']);
    const field = await t.request('POST', '/pattern-a/_analyze', { field: 'card', text: 'call 1-800-555' });
    expect(field.body.tokens.map((x: { token: string }) => x.token)).toEqual(['call', '1_800_555']);
  });

  it('refuses bad patterns and non-regular Java features with ES-shaped 400s', async () => {
    const create = (name: string, analysis: Record<string, unknown>) => t.request('PUT', `/${name}`, { settings: { analysis } });
    expectEsError(await create('pattern-bad-1', { tokenizer: { t: { type: 'pattern', pattern: '(a' } } }), 400, 'illegal_argument_exception', 'Unclosed group near index 2');
    expectEsError(await create('pattern-bad-2', { tokenizer: { t: { type: 'pattern', pattern: '(\\w+)\\1' } } }), 400, 'illegal_argument_exception',
      'A back-reference is not supported in a pattern (only regular patterns are) near index 6');
    expectEsError(await create('pattern-bad-3', { char_filter: { c: { type: 'pattern_replace' } } }), 400, 'illegal_argument_exception',
      "pattern is missing for [c] char filter of type 'pattern_replace'");
    expectEsError(await create('pattern-bad-4', { analyzer: { a: { type: 'pattern', flags: 'CASE_INSENSITIVE|NOPE' } } }), 400, 'illegal_argument_exception', 'Unknown regex flag [NOPE]');
    expectEsError(await create('pattern-bad-5', { filter: { f: { type: 'pattern_replace', pattern: 'a', replacement: '$2' } } }), 400, 'illegal_argument_exception', 'No group 2');
    const inline = await t.request('POST', '/_analyze', { tokenizer: { type: 'pattern', pattern: 'a++' }, text: 'aaa' });
    expectEsError(inline, 400, 'illegal_argument_exception', 'A possessive quantifier is not supported in a pattern (only regular patterns are) near index 2');
  });
});
