/**
 * Analyze API — `GET|POST /_analyze`, `/<index>/_analyze`:
 * https://www.elastic.co/guide/en/elasticsearch/reference/8.15/indices-analyze.html
 * Expected tokens are the outputs printed on ES's analysis reference pages (each tokenizer, token
 * filter and char filter page has an example); offsets and positions follow from the example text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const analyze = async (body: Record<string, unknown>, index = '') => {
  const res = await t.request('POST', `${index}/_analyze`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.tokens as Array<Record<string, unknown>>;
};
const terms = async (body: Record<string, unknown>, index = '') => (await analyze(body, index)).map((x) => x.token);

describe('built-in analyzers', () => {
  it('standard: the example of the standard analyzer page, token by token', async () => {
    const tokens = await analyze({ analyzer: 'standard', text: 'The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone.' });
    expect(tokens.slice(0, 5)).toEqual([
      { token: 'the', start_offset: 0, end_offset: 3, type: '<ALPHANUM>', position: 0 },
      { token: '2', start_offset: 4, end_offset: 5, type: '<NUM>', position: 1 },
      { token: 'quick', start_offset: 6, end_offset: 11, type: '<ALPHANUM>', position: 2 },
      { token: 'brown', start_offset: 12, end_offset: 17, type: '<ALPHANUM>', position: 3 },
      { token: 'foxes', start_offset: 18, end_offset: 23, type: '<ALPHANUM>', position: 4 },
    ]);
    expect(tokens.map((x) => x.token)).toEqual(['the', '2', 'quick', 'brown', 'foxes', 'jumped', 'over', 'the', 'lazy', 'dog\'s', 'bone']);
  });

  it('GET works as POST, and no analyzer means the standard one', async () => {
    const res = await t.request('GET', '/_analyze', { text: 'Hello World' });
    expect(res.body.tokens.map((x: { token: string }) => x.token)).toEqual(['hello', 'world']);
  });

  it('several texts continue one another: offsets after a gap of one, positions after the analyzer gap', async () => {
    const tokens = await analyze({ analyzer: 'standard', text: ['this is a test', 'the second text'] });
    expect(tokens.map((x) => [x.token, x.position, x.start_offset, x.end_offset])).toEqual([
      ['this', 0, 0, 4], ['is', 1, 5, 7], ['a', 2, 8, 9], ['test', 3, 10, 14],
      ['the', 4, 15, 18], ['second', 5, 19, 25], ['text', 6, 26, 30],
    ]);
  });

  it('whitespace tokenizer: the page example', async () => {
    expect(await terms({ tokenizer: 'whitespace', text: 'The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone.' }))
      .toEqual(['The', '2', 'QUICK', 'Brown-Foxes', 'jumped', 'over', 'the', 'lazy', 'dog\'s', 'bone.']);
  });
});

describe('tokenizers', () => {
  it('ngram with defaults (1, 2): grams by start, then length, each its own position', async () => {
    const tokens = await analyze({ tokenizer: 'ngram', text: 'Quick Fox' });
    expect(tokens.map((x) => x.token)).toEqual(['Q', 'Qu', 'u', 'ui', 'i', 'ic', 'c', 'ck', 'k', 'k ', ' ', ' F', 'F', 'Fo', 'o', 'ox', 'x']);
    expect(tokens[1]).toEqual({ token: 'Qu', start_offset: 0, end_offset: 2, type: 'word', position: 1 });
    expect(tokens[16]).toEqual({ token: 'x', start_offset: 8, end_offset: 9, type: 'word', position: 16 });
  });

  it('edge_ngram with defaults, and configured with token_chars (page example)', async () => {
    expect(await terms({ tokenizer: 'edge_ngram', text: 'Quick Fox' })).toEqual(['Q', 'Qu']);
    const tokens = await analyze({
      tokenizer: { type: 'edge_ngram', min_gram: 2, max_gram: 10, token_chars: ['letter', 'digit'] },
      text: '2 Quick Foxes.',
    });
    expect(tokens.map((x) => x.token)).toEqual(['Qu', 'Qui', 'Quic', 'Quick', 'Fo', 'Fox', 'Foxe', 'Foxes']);
    expect(tokens[4]).toEqual({ token: 'Fo', start_offset: 8, end_offset: 10, type: 'word', position: 4 });
  });

  it('standard with max_token_length 5 splits long words (page example)', async () => {
    expect(await terms({ tokenizer: { type: 'standard', max_token_length: 5 }, text: 'The 2 QUICK Brown-Foxes jumped over the lazy dog\'s bone.' }))
      .toEqual(['The', '2', 'QUICK', 'Brown', 'Foxes', 'jumpe', 'd', 'over', 'the', 'lazy', 'dog\'s', 'bone']);
  });

  it('letter and lowercase tokenizers', async () => {
    expect(await terms({ tokenizer: 'letter', text: 'The 2 QUICK Brown-Foxes' })).toEqual(['The', 'QUICK', 'Brown', 'Foxes']);
    expect(await terms({ tokenizer: 'lowercase', text: 'The 2 QUICK Brown-Foxes' })).toEqual(['the', 'quick', 'brown', 'foxes']);
  });
});

describe('token filters', () => {
  it('lowercase and uppercase', async () => {
    expect(await terms({ tokenizer: 'standard', filter: ['lowercase'], text: 'THE Quick FoX JUMPs' })).toEqual(['the', 'quick', 'fox', 'jumps']);
    expect(await terms({ tokenizer: 'standard', filter: ['uppercase'], text: 'the Quick FoX JUMPs' })).toEqual(['THE', 'QUICK', 'FOX', 'JUMPS']);
  });

  it('asciifolding, and with preserve_original the original stacked after the folded token', async () => {
    expect(await terms({ tokenizer: 'standard', filter: ['asciifolding'], text: 'açaí à la carte' })).toEqual(['acai', 'a', 'la', 'carte']);
    const tokens = await analyze({ tokenizer: 'standard', filter: [{ type: 'asciifolding', preserve_original: true }], text: 'açaí à la carte' });
    expect(tokens.map((x) => [x.token, x.position])).toEqual([['acai', 0], ['açaí', 0], ['a', 1], ['à', 1], ['la', 2], ['carte', 3]]);
  });

  it('stop removes _english_ words and leaves their positions empty', async () => {
    const tokens = await analyze({ tokenizer: 'standard', filter: ['stop'], text: 'a quick fox jumps over the lazy dog' });
    expect(tokens.map((x) => [x.token, x.position])).toEqual([['quick', 1], ['fox', 2], ['jumps', 3], ['over', 4], ['lazy', 6], ['dog', 7]]);
    expect(await terms({ tokenizer: 'whitespace', filter: [{ type: 'stop', stopwords: ['and', 'is', 'the'] }], text: 'the fox and the dog is' }))
      .toEqual(['fox', 'dog']);
  });

  it('stemmer (porter), snowball (porter2), porter_stem and minimal_english', async () => {
    expect(await terms({ tokenizer: 'standard', filter: ['stemmer'], text: 'the foxes jumping quickly' })).toEqual(['the', 'fox', 'jump', 'quickli']);
    expect(await terms({ tokenizer: 'standard', filter: ['snowball'], text: 'the foxes jumping quickly' })).toEqual(['the', 'fox', 'jump', 'quick']);
    expect(await terms({ tokenizer: 'standard', filter: ['porter_stem'], text: 'the foxes jumping quickly' })).toEqual(['the', 'fox', 'jump', 'quickli']);
    expect(await terms({ tokenizer: 'standard', filter: [{ type: 'stemmer', language: 'minimal_english' }], text: 'the foxes jumping quickly' }))
      .toEqual(['the', 'foxe', 'jumping', 'quickly']);
  });

  it('keyword_marker protects a word from the stemmer after it (page example)', async () => {
    expect(await terms({
      tokenizer: 'whitespace', filter: [{ type: 'keyword_marker', keywords: ['jumping'] }, 'stemmer'], text: 'fox running and jumping',
    })).toEqual(['fox', 'run', 'and', 'jumping']);
  });

  it('shingle: unigrams and two-word shingles at each position', async () => {
    const tokens = await analyze({ tokenizer: 'whitespace', filter: ['shingle'], text: 'quick brown fox jumps' });
    expect(tokens).toEqual([
      { token: 'quick', start_offset: 0, end_offset: 5, type: 'word', position: 0 },
      { token: 'quick brown', start_offset: 0, end_offset: 11, type: 'shingle', position: 0, positionLength: 2 },
      { token: 'brown', start_offset: 6, end_offset: 11, type: 'word', position: 1 },
      { token: 'brown fox', start_offset: 6, end_offset: 15, type: 'shingle', position: 1, positionLength: 2 },
      { token: 'fox', start_offset: 12, end_offset: 15, type: 'word', position: 2 },
      { token: 'fox jumps', start_offset: 12, end_offset: 21, type: 'shingle', position: 2, positionLength: 2 },
      { token: 'jumps', start_offset: 16, end_offset: 21, type: 'word', position: 3 },
    ]);
    expect(await terms({ tokenizer: 'whitespace', filter: [{ type: 'shingle', min_shingle_size: 2, max_shingle_size: 3, output_unigrams: false }], text: 'quick brown fox jumps' }))
      .toEqual(['quick brown', 'quick brown fox', 'brown fox', 'brown fox jumps', 'fox jumps']);
  });

  it('ngram and edge_ngram filters stack grams at the token position', async () => {
    expect(await terms({ tokenizer: 'standard', filter: ['ngram'], text: 'Quick fox' }))
      .toEqual(['Q', 'Qu', 'u', 'ui', 'i', 'ic', 'c', 'ck', 'k', 'f', 'fo', 'o', 'ox', 'x']);
    const tokens = await analyze({ tokenizer: 'standard', filter: [{ type: 'edge_ngram', min_gram: 1, max_gram: 3 }], text: 'the quick brown fox jumps' });
    expect(tokens.map((x) => x.token)).toEqual(['t', 'th', 'the', 'q', 'qu', 'qui', 'b', 'br', 'bro', 'f', 'fo', 'fox', 'j', 'ju', 'jum']);
    expect(tokens[4]).toEqual({ token: 'qu', start_offset: 4, end_offset: 9, type: '<ALPHANUM>', position: 1 });
  });

  it('length, truncate, unique, trim, elision, reverse', async () => {
    expect(await terms({ tokenizer: 'whitespace', filter: [{ type: 'length', min: 0, max: 4 }], text: 'the quick brown fox jumps over the lazy dog' }))
      .toEqual(['the', 'fox', 'over', 'the', 'lazy', 'dog']);
    expect(await terms({ tokenizer: 'whitespace', filter: ['truncate'], text: 'quinquennial extravaganza carried on' }))
      .toEqual(['quinquenni', 'extravagan', 'carried', 'on']);
    expect(await terms({ tokenizer: 'whitespace', filter: ['unique'], text: 'the quick fox jumps the lazy fox' }))
      .toEqual(['the', 'quick', 'fox', 'jumps', 'lazy']);
    expect(await terms({ tokenizer: 'keyword', filter: ['trim'], text: ' fox ' })).toEqual(['fox']);
    expect(await terms({ tokenizer: 'standard', filter: ['elision'], text: 'j’examine près du wharf' })).toEqual(['examine', 'près', 'du', 'wharf']);
    expect(await terms({ tokenizer: 'standard', filter: ['reverse'], text: 'quick fox jumps' })).toEqual(['kciuq', 'xof', 'spmuj']);
  });

  it('word_delimiter_graph splits at delimiters, case and digit changes, dropping the possessive (page example)', async () => {
    const tokens = await analyze({ tokenizer: 'keyword', filter: ['word_delimiter_graph'], text: 'Neil\'s-Super-Duper-XL500--42+AutoCoder' });
    expect(tokens.map((x) => x.token)).toEqual(['Neil', 'Super', 'Duper', 'XL', '500', '42', 'Auto', 'Coder']);
    expect(tokens[3]).toEqual({ token: 'XL', start_offset: 19, end_offset: 21, type: 'word', position: 3 });
    const catenated = await analyze({ tokenizer: 'whitespace', filter: [{ type: 'word_delimiter_graph', catenate_words: true, preserve_original: true }], text: 'wi-fi' });
    expect(catenated.map((x) => [x.token, x.position, x.positionLength ?? 1])).toEqual([['wi-fi', 0, 2], ['wifi', 0, 2], ['wi', 0, 1], ['fi', 1, 1]]);
  });

  it('synonym_graph: a multi-word synonym spans its positions (token graphs page)', async () => {
    const tokens = await analyze({
      tokenizer: 'standard', filter: [{ type: 'synonym_graph', synonyms: ['dns, domain name system'] }], text: 'domain name system is fragile',
    });
    expect(tokens).toEqual([
      { token: 'dns', start_offset: 0, end_offset: 18, type: 'SYNONYM', position: 0, positionLength: 3 },
      { token: 'domain', start_offset: 0, end_offset: 6, type: '<ALPHANUM>', position: 0 },
      { token: 'name', start_offset: 7, end_offset: 11, type: '<ALPHANUM>', position: 1 },
      { token: 'system', start_offset: 12, end_offset: 18, type: '<ALPHANUM>', position: 2 },
      { token: 'is', start_offset: 19, end_offset: 21, type: '<ALPHANUM>', position: 3 },
      { token: 'fragile', start_offset: 22, end_offset: 29, type: '<ALPHANUM>', position: 4 },
    ]);
  });

  it('synonym: equivalent and explicit Solr rules, and the WordNet format', async () => {
    const filter = { type: 'synonym', synonyms: ['jump, leap', 'i-pod, i pod => ipod', '# a comment'] };
    const tokens = await analyze({ tokenizer: 'whitespace', filter: [filter], text: 'jump i-pod' });
    expect(tokens.map((x) => [x.token, x.position, x.type])).toEqual([['jump', 0, 'word'], ['leap', 0, 'SYNONYM'], ['ipod', 1, 'SYNONYM']]);
    const wordnet = { type: 'synonym', format: 'wordnet', synonyms: ["s(100000001,1,'abstain',v,1,0).", "s(100000001,2,'refrain',v,1,0).", "s(100000001,3,'desist',v,1,0)."] };
    expect(await terms({ tokenizer: 'whitespace', filter: [wordnet], text: 'refrain' })).toEqual(['refrain', 'abstain', 'desist']);
    // Rules go through the filters before the synonym filter: "Jump" in a rule matches lowercased text.
    expect(await terms({ tokenizer: 'whitespace', filter: ['lowercase', { type: 'synonym', synonyms: ['Jump => hop'] }], text: 'JUMP' })).toEqual(['hop']);
  });
});

describe('char filters', () => {
  it('html_strip: block tags become newlines, entities are decoded (page example)', async () => {
    const tokens = await analyze({ tokenizer: 'keyword', char_filter: ['html_strip'], text: '<p>I&apos;m so <b>happy</b>!</p>' });
    expect(tokens).toEqual([{ token: '\nI\'m so happy!\n', start_offset: 0, end_offset: 32, type: 'word', position: 0 }]);
    expect(await terms({ tokenizer: 'standard', char_filter: ['html_strip'], text: '<p>I&apos;m so <b>happy</b>!</p>' })).toEqual(['I\'m', 'so', 'happy']);
    const kept = await terms({ tokenizer: 'keyword', char_filter: [{ type: 'html_strip', escaped_tags: ['b'] }], text: '<p>I&apos;m so <b>happy</b>!</p>' });
    expect(kept).toEqual(['\nI\'m so <b>happy</b>!\n']);
  });

  it('html_strip corrects offsets back into the markup', async () => {
    const tokens = await analyze({ tokenizer: 'standard', char_filter: ['html_strip'], text: '<p>This is the <b>ElasticSearch</b> course.</p>' });
    expect(tokens.map((x) => [x.token, x.start_offset])).toEqual([['This', 3], ['is', 8], ['the', 11], ['ElasticSearch', 18], ['course', 36]]);
  });

  it('mapping replaces keys, longest first, and keeps offsets in the original text (page example)', async () => {
    const tokens = await analyze({
      tokenizer: 'standard', char_filter: [{ type: 'mapping', mappings: [':) => _happy_', ':( => _sad_'] }], text: 'I\'m delighted about it :(',
    });
    expect(tokens.map((x) => x.token)).toEqual(['I\'m', 'delighted', 'about', 'it', '_sad_']);
    expect(tokens[4]).toEqual({ token: '_sad_', start_offset: 23, end_offset: 25, type: '<ALPHANUM>', position: 4 });
    const digits = ['٠ => 0', '١ => 1', '٢ => 2', '٣ => 3', '٤ => 4', '٥ => 5', '٦ => 6', '٧ => 7', '٨ => 8', '٩ => 9'];
    expect(await terms({ tokenizer: 'keyword', char_filter: [{ type: 'mapping', mappings: digits }], text: 'My license plate is ٢٥٠١٥' }))
      .toEqual(['My license plate is 25015']);
  });
});

describe('explain', () => {
  it('shows every stage of a custom chain with the requested attributes (page example)', async () => {
    const res = await t.request('POST', '/_analyze', { tokenizer: 'standard', filter: ['snowball'], text: 'detailed output', explain: true, attributes: ['keyword'] });
    expect(res.body).toEqual({
      detail: {
        custom_analyzer: true,
        charfilters: [],
        tokenizer: {
          name: 'standard',
          tokens: [
            { token: 'detailed', start_offset: 0, end_offset: 8, type: '<ALPHANUM>', position: 0 },
            { token: 'output', start_offset: 9, end_offset: 15, type: '<ALPHANUM>', position: 1 },
          ],
        },
        tokenfilters: [{
          name: 'snowball',
          tokens: [
            { token: 'detail', start_offset: 0, end_offset: 8, type: '<ALPHANUM>', position: 0, keyword: false },
            { token: 'output', start_offset: 9, end_offset: 15, type: '<ALPHANUM>', position: 1, keyword: false },
          ],
        }],
      },
    });
  });

  it('a built-in analyzer is one stage, its tokens with all attributes', async () => {
    const res = await t.request('POST', '/_analyze', { analyzer: 'standard', text: 'The fox', explain: true });
    expect(res.body.detail).toEqual({
      custom_analyzer: false,
      analyzer: {
        name: 'standard',
        tokens: [
          { token: 'the', start_offset: 0, end_offset: 3, type: '<ALPHANUM>', position: 0, bytes: '[74 68 65]', positionLength: 1, termFrequency: 1 },
          { token: 'fox', start_offset: 4, end_offset: 7, type: '<ALPHANUM>', position: 1, bytes: '[66 6f 78]', positionLength: 1, termFrequency: 1 },
        ],
      },
    });
  });

  it('shows char filters\' texts', async () => {
    const res = await t.request('POST', '/_analyze', { tokenizer: 'keyword', char_filter: ['html_strip'], text: ['<b>a</b>', 'b'], explain: true });
    expect(res.body.detail.charfilters).toEqual([{ name: 'html_strip', filtered_text: ['a', 'b'] }]);
  });
});

describe('index analysis', () => {
  beforeAll(async () => {
    const res = await t.request('PUT', '/analyze-idx', {
      settings: {
        analysis: {
          analyzer: {
            folding: { tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
            html: { type: 'custom', tokenizer: 'standard', char_filter: ['html_strip'], filter: ['lowercase', 'my_stop'] },
          },
          filter: { my_stop: { type: 'stop', stopwords: ['so'] } },
          normalizer: { lower: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
        },
      },
      mappings: {
        properties: {
          title: { type: 'text', analyzer: 'folding' },
          tag: { type: 'keyword', normalizer: 'lower' },
          count: { type: 'integer' },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('runs the index\'s analyzers by name', async () => {
    expect(await terms({ analyzer: 'folding', text: 'Café Déjà Vu' }, '/analyze-idx')).toEqual(['cafe', 'deja', 'vu']);
    expect(await terms({ analyzer: 'html', text: '<p>I&apos;m so <b>happy</b>!</p>' }, '/analyze-idx')).toEqual(['i\'m', 'happy']);
  });

  it('uses a field\'s analyzer, a keyword field\'s normalizer, and a named normalizer', async () => {
    expect(await terms({ field: 'title', text: 'Crème Brûlée' }, '/analyze-idx')).toEqual(['creme', 'brulee']);
    const tag = await analyze({ field: 'tag', text: 'ÉLAN Vital' }, '/analyze-idx');
    expect(tag).toEqual([{ token: 'elan vital', start_offset: 0, end_offset: 10, type: 'word', position: 0 }]);
    expect(await terms({ normalizer: 'lower', text: 'ÀB' }, '/analyze-idx')).toEqual(['ab']);
  });

  it('refuses a non-tokenized field, unknown names and bad requests with ES errors', async () => {
    expectEsError(await t.request('POST', '/analyze-idx/_analyze', { field: 'count', text: '1' }), 400, 'illegal_argument_exception',
      'Can\'t process field [count], Analysis requests are only supported on tokenized fields');
    expectEsError(await t.request('POST', '/_analyze', { analyzer: 'folding', text: 'x' }), 400, 'illegal_argument_exception',
      'failed to find global analyzer [folding]');
    expectEsError(await t.request('POST', '/analyze-idx/_analyze', { analyzer: 'nope', text: 'x' }), 400, 'illegal_argument_exception',
      'failed to find analyzer [nope]');
    expectEsError(await t.request('POST', '/_analyze', { tokenizer: 'nope', text: 'x' }), 400, 'illegal_argument_exception',
      'failed to find global tokenizer under [nope]');
    expectEsError(await t.request('POST', '/_analyze', { tokenizer: 'standard', filter: ['nope'], text: 'x' }), 400, 'illegal_argument_exception',
      'failed to find global filter under [nope]');
    expectEsError(await t.request('POST', '/_analyze', { analyzer: 'standard' }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: text is missing;');
    expectEsError(await t.request('POST', '/_analyze', { analyzer: 'standard', tokenizer: 'standard', text: 'x' }), 400,
      'action_request_validation_exception', 'Validation Failed: 1: cannot define extra components on a named analyzer;');
    expectEsError(await t.request('POST', '/_analyze', { normalizer: 'lower', text: 'x' }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: index is required if normalizer is specified;');
    expect((await t.request('POST', '/missing-idx/_analyze', { text: 'x' })).status).toBe(404);
    const unknown = await t.request('POST', '/_analyze', { text: 'x', analyser: 'standard' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.reason).toMatch(/^\[analyze_request\] unknown field \[analyser\]/);
  });
});
