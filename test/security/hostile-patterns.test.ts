/**
 * Hostile clients and user patterns (issue 15, items 2, 5 and the invalid-regexp part of 6).
 * Every pattern a client can send — filter_path and index-expression wildcards, field wildcards,
 * role index patterns (incl. `/regex/` ones from any manage_own_api_key holder), `_has_privileges`,
 * the terms aggregation's include, the ingest split separator, query_string and `regexp` queries,
 * `wildcard` queries, the completion suggester's regex — is matched by an automaton in linear
 * time. Each attack from the issue runs over real HTTP on loopback at (at least) the issue's
 * sizes, which took 3–13 s each with backtracking RegExps; the test checks the hostile request
 * ends with its answer or ES's error, that `GET /` is answered while it runs, and the server
 * stays up.
 *
 * Time bounds are generous (the CI machine is shared and often 5–10× slower than idle): the
 * issue's 100 ms / 1 s targets are measured and printed, not asserted; the asserted bounds only
 * catch a return to super-linear matching (the sizes took seconds at idle before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, role, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

/** Asserted bounds (ms): loose on purpose, see above. */
const HOSTILE_BOUND_MS = 5_000;
const PROBE_BOUND_MS = 2_000;

let t: SecureTestApp;
let base: string;

const LONG = 'a'.repeat(150);
const HOSTILE_GLOB = '*a*a*a*a*b';

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  ms: number;
  probeMs: number;
}

async function send(method: string, path: string, body?: unknown, key = SUPERUSER_KEY): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `ApiKey ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.length > 0 ? JSON.parse(text) : undefined };
}

/**
 * Sends the hostile request and, once it is on its way, `GET /`: measures both. The probe goes out
 * after the hostile request's bytes were written, so a blocked event loop would delay it.
 */
async function hostile(method: string, path: string, body?: unknown, key = SUPERUSER_KEY): Promise<Answer> {
  const start = performance.now();
  const attack = send(method, path, body, key).then((r) => ({ ...r, ms: performance.now() - start }));
  await new Promise((r) => setTimeout(r, 5));
  const probeStart = performance.now();
  const probe = await send('GET', '/');
  const probeMs = performance.now() - probeStart;
  expect(probe.status).toBe(200);
  const answer = await attack;
  const out = { ...answer, probeMs };
  console.log(`${method} ${path.slice(0, 60)}: ${answer.status} in ${answer.ms.toFixed(0)} ms, GET / in ${probeMs.toFixed(0)} ms`);
  expect(out.ms).toBeLessThan(HOSTILE_BOUND_MS);
  expect(out.probeMs).toBeLessThan(PROBE_BOUND_MS);
  return out;
}

beforeAll(async () => {
  t = await createSecureTestApp();
  base = await t.listen();
  expect((await t.request('PUT', `/${LONG}`, { mappings: { properties: { [LONG]: { type: 'keyword' } } } })).status).toBe(200);
  expect((await t.request('PUT', '/words', {
    mappings: { properties: { k: { type: 'keyword' }, title: { type: 'text' }, [LONG]: { type: 'text' }, s: { type: 'completion' } } },
  })).status).toBe(200);
  const lines: unknown[] = [];
  const docs = [
    { k: 'a'.repeat(29), title: 'x', [LONG]: 'hello world', s: 'a'.repeat(29) },
    { k: 'a'.repeat(150), title: 'x', s: 'a'.repeat(100) },
    { k: 'aab', title: 'y', s: 'aab' },
    { k: 'banana', title: 'z', s: 'banana' },
  ];
  docs.forEach((d, i) => lines.push({ index: { _id: String(i) } }, d));
  expect((await t.bulk('/words/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
  expect((await t.request('PUT', `/${LONG}/_doc/1?refresh=true`, { [LONG]: 'v' })).status).toBe(201);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('`*` wildcards over long names are linear (item 2)', () => {
  it('filter_path `*a*a*a*a*b` over a 150-character key answers at once', async () => {
    const res = await hostile('GET', `/${LONG}/_mapping?filter_path=${HOSTILE_GLOB}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const keep = await send('GET', `/${LONG}/_mapping?filter_path=*a*a*a*a*a`);
    expect(Object.keys(keep.body)).toEqual([LONG]);
  });

  it('an index expression `*a*a*a*a*b` against a 150-character index name resolves to nothing', async () => {
    const res = await hostile('GET', `/${HOSTILE_GLOB}/_search`);
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(0);
  });

  it('multi_match and highlight field wildcards against a 150-character field name', async () => {
    const res = await hostile('POST', '/words/_search', {
      query: { multi_match: { query: 'hello', fields: [HOSTILE_GLOB, 'title'] } },
      highlight: { fields: { [HOSTILE_GLOB]: {} } },
    });
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(0);
  });

  it('_has_privileges with a 150-character index name against a `*a*a*a*a*b` role pattern', async () => {
    const key = await t.createKey('globber', role(HOSTILE_GLOB, ['read']));
    const res = await hostile('POST', '/_security/user/_has_privileges', { index: [{ names: [LONG], privileges: ['read'] }] }, key.encoded);
    expect(res.status).toBe(200);
    expect(res.body.has_all_requested).toBe(false);
    expect(res.body.index[LONG]).toEqual({ read: false });
  });
});

describe('role `/regex/` index patterns are automata (item 2)', () => {
  it('a manage_own_api_key holder creates `/(a|aa)*c/`; a 40-character index name is refused at once', async () => {
    const owner = await t.createKey('owner', { r: { cluster: ['manage_own_api_key'], indices: [{ names: ['*'], privileges: ['read'] }] } });
    const derived = await t.createKey('regex-role', role('/(a|aa)*c/', ['read']), {}, owner.encoded);
    const name = 'a'.repeat(40);
    const res = await hostile('GET', `/${name}/_search`, undefined, derived.encoded);
    expect(res.status).toBe(403);
    expect(res.body.error.type).toBe('security_exception');
    // The pattern still grants what it describes.
    expect((await t.request('PUT', '/aac')).status).toBe(200);
    expect((await send('GET', '/aac/_search', undefined, derived.encoded)).status).toBe(200);
  });

  it('a role regexp too complex to determinize grants nothing and costs nothing', async () => {
    const key = await t.createKey('complex-role', role('/.*a.{40}/', ['read']));
    const res = await hostile('GET', `/${LONG}/_search`, undefined, key.encoded);
    expect(res.status).toBe(403);
  });
});

describe('terms include and the ingest split separator (item 2)', () => {
  it('terms include `(a+)+b` over a 29- and a 150-character term', async () => {
    const res = await hostile('POST', '/words/_search', { size: 0, aggs: { k: { terms: { field: 'k', include: '(a+)+b' } } } });
    expect(res.status).toBe(200);
    expect(res.body.aggregations.k.buckets).toEqual([{ key: 'aab', doc_count: 1 }]);
  });

  it('a malformed include answers 400 with Lucene\'s message', async () => {
    const res = await send('POST', '/words/_search', { size: 0, aggs: { k: { terms: { field: 'k', include: '(a' } } } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("expected ')' at position 2");
  });

  it('split on `(a+)+b` over a 10,000-character value', async () => {
    const res = await hostile('POST', '/_ingest/pipeline/_simulate', {
      pipeline: { processors: [{ split: { field: 'v', separator: '(a+)+b' } }] },
      docs: [{ _source: { v: 'a'.repeat(10_000) } }, { _source: { v: 'xaabyab z' } }],
    });
    expect(res.status).toBe(200);
    expect(res.body.docs[0].doc._source.v).toEqual(['a'.repeat(10_000)]);
    expect(res.body.docs[1].doc._source.v).toEqual(['x', 'y', ' z']);
  });

  it('a separator with a back-reference is refused when the pipeline is stored', async () => {
    const res = await send('PUT', '/_ingest/pipeline/backref', { processors: [{ split: { field: 'v', separator: '(a)\\1' } }] });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('parse_exception');
    expect(res.body.error.reason).toContain('back-reference');
  });
});

describe('search-worker patterns are automata, bounded by timeout (item 5)', () => {
  it('query_string `k:/(a+)+b/` over 29- and 150-character terms', async () => {
    const res = await hostile('GET', '/words/_search?q=k:/(a%2B)%2Bb/&timeout=100ms');
    expect(res.status).toBe(200);
    expect(res.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
  });

  it('the regexp query `(a+)+b`, and case_insensitive', async () => {
    const res = await hostile('POST', '/words/_search', { timeout: '100ms', query: { regexp: { k: { value: '(A+)+B', case_insensitive: true } } } });
    expect(res.status).toBe(200);
    expect(res.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
  });

  it('a wildcard query `*a*a*a*a*a*b` over a 150-character term', async () => {
    const res = await hostile('POST', '/words/_search', { timeout: '100ms', query: { wildcard: { k: '*a*a*a*a*a*b' } } });
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(0);
    const benign = await send('POST', '/words/_search', { query: { wildcard: { k: '*a?b' } } });
    expect(benign.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2']);
  });

  it('the completion suggester regex `(a+)+b` over 29- and 100-character inputs', async () => {
    const res = await hostile('POST', '/words/_search', { timeout: '100ms', suggest: { s: { regex: '(a+)+b', completion: { field: 's' } } } });
    expect(res.status).toBe(200);
    expect(res.body.suggest.s[0].options.map((o: { text: string }) => o.text)).toEqual(['aab']);
  });
});

describe("ES's errors for bad and too complex patterns (items 5, 6)", () => {
  it('?q=/(/ on every field is lenient, as in ES: no hits, no 500', async () => {
    // QueryStringQueryBuilder: with the default field `*`, `lenient` defaults to true, and
    // QueryStringQueryParser.getRegexpQuerySingle turns a RuntimeException into a match-none query.
    const res = await hostile('GET', '/words/_search?q=/(/');
    expect(res.status).toBe(200);
    expect(res.body.hits.total.value).toBe(0);
  });

  it('?q=/(/ on a named default field answers 400: failed to create query, caused by Lucene\'s message', async () => {
    const res = await hostile('GET', '/words/_search?q=/(/&df=k');
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('search_phase_execution_exception');
    expect(res.body.error.root_cause[0].type).toBe('query_shard_exception');
    expect(res.body.error.root_cause[0].reason).toBe('failed to create query: unexpected end-of-string');
    expect(res.body.error.caused_by.caused_by).toMatchObject({ type: 'illegal_argument_exception', reason: 'unexpected end-of-string' });
  });

  it('a regexp needing more than 10,000 states answers too_complex_to_determinize_exception', async () => {
    const res = await hostile('POST', '/words/_search', { query: { regexp: { k: '.*a.{20}' } } });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].type).toBe('query_shard_exception');
    expect(res.body.error.caused_by.caused_by.type).toBe('too_complex_to_determinize_exception');
    expect(res.body.error.caused_by.caused_by.reason).toMatch(/^Determinizing automaton with \d+ states and \d+ transitions would result in more than 10000 states\.$/);
  });

  it('max_determinized_states lowers the limit', async () => {
    const res = await send('POST', '/words/_search', { query: { regexp: { k: { value: '[ab]*a[ab]{4}', max_determinized_states: 10 } } } });
    expect(res.status).toBe(400);
    expect(res.body.error.caused_by.caused_by.reason).toContain('more than 10 states');
  });

  it('a regexp longer than index.max_regex_length answers ES\'s message', async () => {
    const res = await send('POST', '/words/_search', { query: { regexp: { k: 'a'.repeat(1001) } } });
    expect(res.status).toBe(400);
    expect(res.body.error.root_cause[0].reason).toBe(
      'failed to create query: The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    );
    // query_string checks the length before its leniency applies, in its own words.
    const qs = await send('GET', `/words/_search?q=k:/${'a'.repeat(1001)}/`);
    expect(qs.status).toBe(400);
    expect(qs.body.error.root_cause[0].reason).toBe(
      'failed to create query: The length of regex [1001] used in the [query_string] has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    );
    // index.max_regex_length is an index setting.
    expect((await send('PUT', '/words/_settings', { index: { max_regex_length: 2000 } })).status).toBe(200);
    expect((await send('POST', '/words/_search', { query: { regexp: { k: 'a'.repeat(1001) } } })).status).toBe(200);
  });

  it('the server is still up after all of the above', async () => {
    expect((await send('GET', '/')).status).toBe(200);
    expect((await send('GET', '/words/_count')).body.count).toBe(4);
  });
});
