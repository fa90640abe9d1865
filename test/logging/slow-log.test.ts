/**
 * ES's search and indexing slow logs: a phase over its threshold logs at the most severe level it
 * exceeds, one under does not, thresholds change through PUT _settings (and at create), source is
 * truncated, bad values fail as ES's do. Thresholds of 0ms / 1h make "over" and "under" certain
 * whatever the machine's load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTook, slowLogLevel, truncateSource } from '../../src/cluster/slow-log.js';
import { captureLog, type LogCapture } from '../support/log-capture.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let log: LogCapture;
let t: TestApp;
beforeAll(async () => {
  log = captureLog('trace');
  t = await createTestApp({ logger: log.logger });
  await t.request('PUT', '/one', { settings: { number_of_shards: 1 }, mappings: { properties: { title: { type: 'text' } } } });
  await t.request('PUT', '/two', {
    settings: { number_of_shards: 2, 'index.search.slowlog.threshold.fetch.debug': '0ms', 'index.search.slowlog.threshold.query.warn': '1h' },
    mappings: { properties: { title: { type: 'text' } } },
  });
  const lines = [];
  for (let i = 0; i < 6; i++) lines.push({ index: { _index: i % 2 ? 'one' : 'two', _id: String(i) } }, { title: `quick brown fox ${i}` });
  expect((await t.bulk('/_bulk?refresh=true', lines)).body.errors).toBe(false);
});
afterAll(() => t.close());

function slowLines(logger: string) {
  return log.lines().filter((l) => l.logger === logger);
}

async function search(index: string, body: unknown) {
  const res = await t.request('POST', `/${index}/_search`, body);
  expect(res.status).toBe(200);
  return res;
}

describe('search slow log', () => {
  it('is off by default: no line for any search', async () => {
    const before = slowLines('index.search.slowlog.query').length;
    await search('one', { query: { match: { title: 'fox' } } });
    expect(slowLines('index.search.slowlog.query').length).toBe(before);
  });

  it('a query over the threshold logs with ES fields; under it does not; updates apply to the next search', async () => {
    const put = await t.request('PUT', '/one/_settings', { 'index.search.slowlog.threshold.query.info': '0ms', 'index.search.slowlog.threshold.query.warn': '1h' });
    expect(put.status).toBe(200);
    const body = { query: { match: { title: 'quick fox' } }, size: 2 };
    await search('one', body);
    const [line, ...more] = slowLines('index.search.slowlog.query');
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: 30, msg: '[one][0]', index: 'one', shard: 0, total_hits: '3 hits', search_type: 'QUERY_THEN_FETCH', total_shards: 1,
      source: JSON.stringify(body),
    });
    expect(line.took).toMatch(/^\d+(\.\d)?(nanos|micros|ms|s)$/);
    expect(typeof line.took_millis).toBe('number');

    // Under the threshold: nothing.
    await t.request('PUT', '/one/_settings', { index: { search: { slowlog: { threshold: { query: { info: '1h' } } } } } });
    await search('one', body);
    expect(slowLines('index.search.slowlog.query')).toHaveLength(1);

    // -1 disables a level; trace at 0ms logs at trace.
    await t.request('PUT', '/one/_settings', { 'index.search.slowlog.threshold.query.info': '-1', 'index.search.slowlog.threshold.query.trace': '0ms' });
    await search('one', body);
    expect(slowLines('index.search.slowlog.query').at(-1)).toMatchObject({ level: 10, index: 'one' });
  });

  it('truncates the source to index.search.slowlog.source characters (false: none)', async () => {
    await t.request('PUT', '/one/_settings', { 'index.search.slowlog.threshold.query.warn': '0ms', 'index.search.slowlog.source': '12' });
    await search('one', { query: { match: { title: 'brown' } } });
    expect(slowLines('index.search.slowlog.query').at(-1)).toMatchObject({ level: 40, source: '{"query":{"m' });
    await t.request('PUT', '/one/_settings', { 'index.search.slowlog.source': 'false' });
    await search('one', { query: { match: { title: 'brown' } } });
    expect(slowLines('index.search.slowlog.query').at(-1)!.source).toBeUndefined();
    await t.request('PUT', '/one/_settings', { 'index.search.slowlog.threshold.query.warn': null });
  });

  it('set at create: one fetch line per shard with a hit on the page; the query under its 1h threshold logs nothing', async () => {
    const before = slowLines('index.search.slowlog.query').length;
    await search('two', { query: { match: { title: 'fox' } } });
    const fetches = slowLines('index.search.slowlog.fetch').filter((l) => l.index === 'two');
    expect(fetches.map((l) => l.shard).sort()).toEqual([0, 1]);
    expect(fetches[0]).toMatchObject({ level: 20, total_hits: '3 hits', total_shards: 2 });
    expect(slowLines('index.search.slowlog.query').length).toBe(before);
  });

  it('refuses bad thresholds and sources as ES does, at create and on update', async () => {
    const bad = await t.request('PUT', '/one/_settings', { 'index.search.slowlog.threshold.query.warn': 'soon' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.reason).toBe('failed to parse setting [index.search.slowlog.threshold.query.warn] with value [soon] as a time value: unit is missing or unrecognized');
    const negative = await t.request('PUT', '/bad', { settings: { 'index.indexing.slowlog.threshold.index.info': '-5s' } });
    expect(negative.status).toBe(400);
    expect(negative.body.error.reason).toMatch(/negative durations are not supported/);
    const source = await t.request('PUT', '/one/_settings', { 'index.indexing.slowlog.source': 'some' });
    expect(source.body.error.reason).toBe('Failed to parse value [some] as only [true] or [false] are allowed.');
    const settings = await t.request('GET', '/two/_settings');
    expect(settings.body.two.settings.index.search.slowlog.threshold.fetch.debug).toBe('0ms');
  });
});

describe('indexing slow log', () => {
  it('logs a document over the threshold with id, routing and the source cut to index.indexing.slowlog.source', async () => {
    await t.request('PUT', '/one/_settings', { 'index.indexing.slowlog.threshold.index.info': '0ms', 'index.indexing.slowlog.source': '20' });
    await t.request('PUT', '/one/_doc/slow-1?routing=r1', { title: 'a   long   title that goes on and on' });
    const line = slowLines('index.indexing.slowlog.index').at(-1)!;
    expect(line).toMatchObject({ level: 30, index: 'one', id: 'slow-1', routing: 'r1', source: '{"title":"a   long' });
    expect(line.msg).toMatch(/^\[one\/[\w-]+\]$/);
    expect(line.took_millis).toMatch(/^\d+$/);

    // reformat=false keeps the source as sent; 1h: nothing more.
    await t.request('PUT', '/one/_settings', { 'index.indexing.slowlog.reformat': false, 'index.indexing.slowlog.source': true });
    await t.request('PUT', '/one/_doc/slow-2', '{ "title" : "spaced" }');
    expect(slowLines('index.indexing.slowlog.index').at(-1)).toMatchObject({ id: 'slow-2', source: '{ "title" : "spaced" }' });
    const count = slowLines('index.indexing.slowlog.index').length;
    await t.request('PUT', '/one/_settings', { 'index.indexing.slowlog.threshold.index.info': '1h' });
    await t.request('PUT', '/one/_doc/slow-3', { title: 'x' });
    expect(slowLines('index.indexing.slowlog.index')).toHaveLength(count);
  });
});

describe('slow-log helpers', () => {
  it('picks the most severe level exceeded, strictly over the threshold', () => {
    const t4 = { warn: 100, info: 50, debug: 10, trace: 0 };
    expect(slowLogLevel(t4, 150)).toBe('warn');
    expect(slowLogLevel(t4, 100)).toBe('info');
    expect(slowLogLevel(t4, 11)).toBe('debug');
    expect(slowLogLevel(t4, 0)).toBeNull();
    expect(slowLogLevel({ warn: -1, info: -1, debug: -1, trace: -1 }, 1e9)).toBeNull();
  });

  it('formats took as ES TimeValue and truncates without splitting a surrogate pair', () => {
    expect([formatTook(12.34), formatTook(1500), formatTook(0.25), formatTook(90_000)]).toEqual(['12.3ms', '1.5s', '250micros', '1.5m']);
    expect(truncateSource('ab😀c', 3)).toBe('ab');
  });
});
