/**
 * A seeded fuzz pass over every route of the REST API (issue 15): each path pattern and method of
 * the route table gets malformed JSON, wrong types, huge numbers, deep nesting, long strings and
 * tokens, invalid UTF-8, gzip and hostile parameters, and then random mutations of a plausible body
 * until the time budget is spent. No answer may be a 5xx, no error body may exceed a few KB, and
 * the server must still answer afterwards. Deterministic for a seed (FUZZ_SEED to change it); the
 * budget (FUZZ_MS, default 25 s) keeps it well under a minute on a loaded machine.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureTestApp, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';
import { mulberry32, type Random } from '../../src/common/prng.js';

const SEED = Number(process.env.FUZZ_SEED ?? 15_015);
const BUDGET_MS = Number(process.env.FUZZ_MS ?? 25_000);
/**
 * Quoted input is cut to a prefix, so an error object is at most ~1 KB; but a search that fails on
 * every shard lists one failure per shard (root_cause, failed_shards, as ES does), so a body grows
 * with the number of indices the fuzzer happened to create (11 such failures gave 8.5 KB). 16 KB
 * holds that state while still catching any echo of a large input.
 */
const MAX_ERROR_BODY = 16 * 1024;

const pick = <T>(rand: Random, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
const nested = (depth: number, open: string, close: string, leaf = '1') => open.repeat(depth) + leaf + close.repeat(depth);

/** Hostile JSON values, as text. */
const HOSTILE_VALUES: readonly string[] = [
  'null', 'true', '0', '-1', '1e400', '-1e400', '99999999999999999999999999', '1.7976931348623157e309', '0.0000000001',
  '""', '"x"', JSON.stringify('a'.repeat(20_000)), JSON.stringify('word '.repeat(5_000)), JSON.stringify('_'.repeat(10_000)),
  '"((((((((((("', '"/(a+)+b/"', '"*a*a*a*a*b"', '"\\u0000\\ud800"', '[]', '{}', '[[[[]]]]', nested(1_100, '[', ']'),
  nested(1_100, '{"a":', '}'), nested(200, '{"bool":{"must":', '}}', '{"match_all":{}}'), '{"a":{"b":{"c":"d"}}}', '[1,"a",null,{}]',
];

/** Whole bodies that are hostile whatever the route expects. */
function hostileBodies(rand: Random): Array<{ kind: string; body: string | Buffer; headers?: Record<string, string> }> {
  return [
    { kind: 'truncated JSON', body: '{"a":' },
    { kind: 'not JSON', body: 'nul' },
    { kind: 'wrong top-level type', body: pick(rand, ['[1,2]', '"s"', '42', 'null']) },
    { kind: 'deep object', body: nested(50_000, '{"a":', '}') },
    { kind: 'deep array', body: `{"a":${nested(100_000, '[', ']', '')}}` },
    { kind: 'huge numbers', body: '{"size":1e400,"from":-99999999999999999999,"query":{"term":{"n":1e309}}}' },
    { kind: 'long key and value', body: `{${JSON.stringify('k'.repeat(50_000))}:${JSON.stringify('v'.repeat(200_000))}}` },
    { kind: 'invalid UTF-8', body: Buffer.concat([Buffer.from('{"query":{"match":{"title":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}}}')]) },
    { kind: 'gzip', body: gzipSync(JSON.stringify({ query: { match: { title: 'x'.repeat(100_000) } } })), headers: { 'content-encoding': 'gzip' } },
    { kind: 'corrupt gzip', body: Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3]), headers: { 'content-encoding': 'gzip' } },
    { kind: 'ndjson', body: `{"index":{"_index":"fz","_id":"${'i'.repeat(600)}"}}\n{"title":1e400}\n{"delete":{}}\n{"search":${nested(1_100, '[', ']')}}\n` },
  ];
}

/** A plausible body for the route, so mutations reach past the first parse error. */
function plausibleBody(path: string): unknown {
  if (path.includes('_search') || path.includes('_count') || path.includes('_by_query')) {
    return { query: { bool: { must: [{ match: { title: 'a b' } }, { range: { n: { gte: 1 } } }], filter: [{ term: { k: 'x' } }] } }, size: 5, aggs: { t: { terms: { field: 'k' } } }, sort: [{ n: 'asc' }], highlight: { fields: { title: {} } } };
  }
  if (path.includes('_mapping')) return { properties: { extra: { type: 'keyword' }, o: { properties: { x: { type: 'long' } } } } };
  if (path.includes('_settings')) return { index: { refresh_interval: '1s', number_of_replicas: 0 } };
  if (path.includes('_aliases') || path.includes('_alias')) return { actions: [{ add: { index: 'fz', alias: 'fza' } }], filter: { term: { k: 'x' } } };
  if (path.includes('_ingest')) return { processors: [{ set: { field: 'a', value: '{{title}}' } }, { split: { field: 'title', separator: ',' } }], docs: [{ _source: { title: 'a,b' } }] };
  if (path.includes('_reindex')) return { source: { index: 'fz', query: { match_all: {} } }, dest: { index: 'fz2' } };
  if (path.includes('_mget')) return { docs: [{ _index: 'fz', _id: '1' }], ids: ['1'] };
  if (path.includes('_update')) return { doc: { n: 2 }, upsert: { n: 1 } };
  if (path.includes('api_key')) return { name: 'k', role_descriptors: { r: { indices: [{ names: ['fz*'], privileges: ['read'] }] } }, ids: ['x'] };
  if (path.includes('trained_models')) return { input: { field_names: ['text_field'] }, docs: [{ text_field: 'a b' }] };
  if (path === '/:index') return { settings: { number_of_shards: 1 }, mappings: { properties: { title: { type: 'text' } } } };
  return { title: 'a b c', n: 1, k: 'x', d: '2020-01-01' };
}

/** The body with one value (at a random path) replaced by a hostile one. */
function mutate(rand: Random, value: unknown): string {
  const text = JSON.stringify(value);
  // Positions just after a ':' or '[' or ',' in the compact JSON: replace the value that follows.
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) if (text[i] === ':' || (text[i] === '[' && text[i + 1] !== ']')) starts.push(i + 1);
  if (starts.length === 0) return pick(rand, HOSTILE_VALUES);
  const at = pick(rand, starts);
  let end = at;
  let depth = 0;
  for (; end < text.length; end++) {
    const c = text[end];
    if (c === '"') {
      for (end++; end < text.length && text[end] !== '"'; end++) if (text[end] === '\\') end++;
      if (depth === 0) { end++; break; }
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) break;
      depth--;
      if (depth === 0) { end++; break; }
    } else if (c === ',' && depth === 0) break;
  }
  return text.slice(0, at) + pick(rand, HOSTILE_VALUES) + text.slice(end);
}

const PARAM_VALUES = ['fz', 'fz*', '_all', '-fz', 'FZ', 'a'.repeat(300), '%ff%fe', '..', '%00', 'fz,nope', '*,-*', '1', 'x'.repeat(2_000)];
const QUERY_STRINGS = [
  '', '?size=1e400', '?from=-5', '?q=((((((', '?q=title:/(/', '?timeout=abc', '?refresh=maybe', '?pretty&filter_path=**.x', '?routing=' + 'r'.repeat(2_000),
  '?scroll=1m', '?wait_for_completion=false', '?pipeline=nope', '?version=99999999999999999999', '?if_seq_no=-1&if_primary_term=x', '?unknown_param=1',
  `?q=${'a'.repeat(100_000)}`, '?df=title&q=' + encodeURIComponent('a AND (b OR'),
];

let t: SecureTestApp;
beforeAll(async () => {
  // Security on, as in production: the security APIs are live, and requests come as the superuser.
  t = await createSecureTestApp();
});
afterAll(async () => t.close());

async function reseed(): Promise<void> {
  if ((await t.request('HEAD', '/fz')).status === 404) {
    await t.request('PUT', '/fz', { mappings: { properties: { title: { type: 'text' }, n: { type: 'long' }, k: { type: 'keyword' }, d: { type: 'date' } } } });
    await t.request('PUT', '/fz/_doc/1?refresh=true', { title: 'a b c', n: 1, k: 'x', d: '2020-01-01' });
  }
}

describe('fuzz pass over every route', () => {
  it(`answers no request with a 5xx and no error body over ${MAX_ERROR_BODY} bytes (seed ${SEED})`, { timeout: 120_000 }, async () => {
    const rand = mulberry32(SEED);
    const routes = t.app.http.routes.list();
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const seen = new Set<string>();
    let requests = 0;
    const send = async (method: string, url: string, body: string | Buffer | undefined, headers: Record<string, string> = {}, kind = '') => {
      const contentType = url.includes('_bulk') || url.includes('_msearch') ? 'application/x-ndjson' : 'application/json';
      const res = await t.app.http.app.inject({
        method: method as never, url, payload: body,
        headers: { authorization: `ApiKey ${SUPERUSER_KEY}`, ...(body === undefined ? {} : { 'content-type': contentType }), ...headers },
      });
      requests++;
      const key = `${method} ${url.split('?')[0].slice(0, 60)} ${kind}`;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${key}: ${res.body.slice(0, 300)}`);
      else if (res.statusCode >= 400 && res.body.length > MAX_ERROR_BODY) failures.push(`${res.body.length}-byte error body ${key}`);
      seen.add(`${method} ${url.split('?')[0]}`);
    };
    const concrete = (path: string) => path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(
      rand() < 0.6 ? (name === 'index' ? 'fz' : name === 'id' ? '1' : name === 'model_id' ? '.sparse_model_2' : 'x') : pick(rand, PARAM_VALUES)));

    // 1. Every route × every hostile body kind (methods without a body get the query strings instead).
    for (const { path, methods } of routes) {
      for (const method of methods) {
        await reseed();
        if (method === 'GET' || method === 'HEAD' || method === 'DELETE') {
          for (const qs of QUERY_STRINGS.slice(0, 6)) await send(method, concrete(path) + qs, undefined, {}, `qs ${qs.slice(0, 20)}`);
        }
        if (method === 'HEAD') continue;
        for (const { kind, body, headers } of hostileBodies(rand)) await send(method, concrete(path), body, headers, kind);
      }
    }
    // 2. Random mutations of plausible bodies and parameters until the budget is spent.
    const start = performance.now();
    while (performance.now() - start < BUDGET_MS) {
      if (requests % 50 === 0) await reseed();
      const { path, methods } = pick(rand, routes);
      const method = pick(rand, methods.filter((m) => m !== 'HEAD').length > 0 ? methods.filter((m) => m !== 'HEAD') : methods);
      const qs = rand() < 0.3 ? pick(rand, QUERY_STRINGS) : '';
      const body = method === 'GET' && rand() < 0.3 ? undefined : mutate(rand, plausibleBody(path));
      await send(method, concrete(path) + qs, body, {}, 'mutation');
    }
    expect(failures).toEqual([]);
    // Every route was exercised, and the server is still answering.
    for (const { path, methods } of routes) for (const m of methods) expect([...seen].some((s) => s.startsWith(`${m} `))).toBe(true);
    expect((await t.request('GET', '/')).status).toBe(200);
    console.log(`fuzz: ${requests} requests over ${routes.length} route patterns, seed ${SEED}`);
  });
});
