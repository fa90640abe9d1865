/**
 * The uax_url_email and classic tokenizers, the classic and kstem filters and stemmer
 * light_english through `_analyze` and index settings, with ES's documented outputs
 * (analysis-uaxurlemail-tokenizer.html, analysis-classic-tokenizer.html, analysis-kstem-tokenfilter.html)
 * and Lucene's validation messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Tok = { token: string; start_offset: number; end_offset: number; type: string; position: number };
const analyze = async (body: Record<string, unknown>, path = '/_analyze'): Promise<Tok[]> => {
  const res = await t.request('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.tokens;
};

describe('uax_url_email', () => {
  it('ES example: an e-mail address is one <EMAIL> token', async () => {
    expect(await analyze({ tokenizer: 'uax_url_email', text: 'Email me at john.smith@global-international.com' })).toEqual([
      { token: 'Email', start_offset: 0, end_offset: 5, type: '<ALPHANUM>', position: 0 },
      { token: 'me', start_offset: 6, end_offset: 8, type: '<ALPHANUM>', position: 1 },
      { token: 'at', start_offset: 9, end_offset: 11, type: '<ALPHANUM>', position: 2 },
      { token: 'john.smith@global-international.com', start_offset: 12, end_offset: 47, type: '<EMAIL>', position: 3 },
    ]);
  });

  it('ES example with max_token_length 5 (Lucene cuts long lexemes)', async () => {
    const tokens = await analyze({ tokenizer: { type: 'uax_url_email', max_token_length: 5 }, text: 'john.smith@global-international.com' });
    expect(tokens.map((x) => x.token)).toEqual(['john', 'smith', 'globa', 'l', 'inter', 'natio', 'nal.c', 'om']);
  });

  it('URLs are <URL> tokens (as Lucene: a final dot at the end of the text is given back)', async () => {
    const tokens = await analyze({ tokenizer: 'uax_url_email', text: 'see https://www.elastic.co/guide?q=1 or elastic.co.' });
    expect(tokens.map((x) => [x.token, x.type])).toEqual([
      ['see', '<ALPHANUM>'], ['https://www.elastic.co/guide?q=1', '<URL>'], ['or', '<ALPHANUM>'], ['elastic.co', '<URL>'],
    ]);
  });

  it('max_token_length outside Lucene\'s bounds is a 400 with its message', async () => {
    expectEsError(await t.request('PUT', '/uax-bad', { settings: { analysis: { tokenizer: { u: { type: 'uax_url_email', max_token_length: 0 } } } } }),
      400, 'illegal_argument_exception', 'maxTokenLength must be greater than zero');
    expectEsError(await t.request('PUT', '/uax-bad', { settings: { analysis: { tokenizer: { u: { type: 'uax_url_email', max_token_length: 2_000_000 } } } } }),
      400, 'illegal_argument_exception', 'maxTokenLength may not exceed 1048576');
  });
});

describe('classic', () => {
  it('ES example: "The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone."', async () => {
    const tokens = await analyze({ tokenizer: 'classic', text: "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone." });
    expect(tokens.map((x) => x.token)).toEqual(['The', '2', 'QUICK', 'Brown', 'Foxes', 'jumped', 'over', 'the', 'lazy', "dog's", 'bone']);
    expect(tokens[9]).toEqual({ token: "dog's", start_offset: 45, end_offset: 50, type: '<APOSTROPHE>', position: 9 });
  });

  it('the classic filter drops possessives and acronym dots', async () => {
    const tokens = await analyze({ tokenizer: 'classic', filter: ['classic'], text: "The I.B.M. dog's bone" });
    expect(tokens.map((x) => [x.token, x.type])).toEqual([['The', '<ALPHANUM>'], ['IBM', '<ACRONYM>'], ['dog', '<APOSTROPHE>'], ['bone', '<ALPHANUM>']]);
  });

  it('ES example with max_token_length 5: longer tokens are dropped, their positions kept', async () => {
    const tokens = await analyze({ tokenizer: { type: 'classic', max_token_length: 5 }, text: "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone." });
    expect(tokens.map((x) => [x.token, x.position])).toEqual([
      ['The', 0], ['2', 1], ['QUICK', 2], ['Brown', 3], ['Foxes', 4], ['over', 6], ['the', 7], ['lazy', 8], ["dog's", 9], ['bone', 10],
    ]);
  });
});

describe('kstem', () => {
  it('ES example: "the foxes jumping quickly" → the fox jump quick', async () => {
    expect((await analyze({ tokenizer: 'standard', filter: ['kstem'], text: 'the foxes jumping quickly' })).map((x) => x.token)).toEqual(['the', 'fox', 'jump', 'quick']);
  });

  it('stemmer light_english in index settings is KStem, at index and search time', async () => {
    const res = await t.request('PUT', '/kstem-idx', {
      settings: { analysis: {
        filter: { light: { type: 'stemmer', language: 'light_english' } },
        analyzer: { default: { tokenizer: 'standard', filter: ['lowercase', 'light'] } },
      } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // KStem only strips an ending when a dictionary word remains: "running" and "happily" stay (as in Lucene)
    expect((await analyze({ analyzer: 'default', text: 'Countries were jumping happily, running' }, '/kstem-idx/_analyze')).map((x) => x.token))
      .toEqual(['country', 'were', 'jump', 'happily', 'running']);
    await t.request('POST', '/kstem-idx/_doc/1?refresh=true', { body: 'two countries' });
    const hits = await t.request('POST', '/kstem-idx/_search', { query: { match: { body: 'country' } } });
    expect(hits.body.hits.total.value).toBe(1);
  });
});
