/**
 * Admission control: beyond the in-flight request limit or the indexing-pressure byte budget the
 * server answers 429 `es_rejected_execution_exception` (what the official clients retry with
 * back-off) instead of queueing without bound; the indexing-buffer budget forces refreshes and,
 * when refreshes fall behind, throttles writes (holds their answers) rather than rejecting them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectErrorType } from '../api/es.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('in-flight request limit', () => {
  it('rejects requests beyond the limit with 429 and admits them again once others finish', async () => {
    t = await createTestApp({ config: { maxInFlightRequests: 2 } });
    await t.request('PUT', '/slow', { settings: { refresh_interval: '1s' } });
    // refresh=wait_for holds each write in flight until the next scheduled refresh.
    const held = [t.request('PUT', '/slow/_doc/1?refresh=wait_for', { a: 1 }), t.request('PUT', '/slow/_doc/2?refresh=wait_for', { a: 2 })];
    await new Promise((r) => setTimeout(r, 50));
    expect(t.app.http.admission.stats().inFlightRequests).toBe(2);
    const rejected = await t.request('GET', '/');
    expectErrorType(rejected, 429, 'es_rejected_execution_exception', /rejected execution of http request \[in_flight_requests=2, max_in_flight_requests=2\]/);
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([201, 201]);
    expect((await t.request('GET', '/')).status).toBe(200);
    expect(t.app.http.admission.stats()).toEqual({ inFlightRequests: 0, writeBytes: 0 });
  });
});

describe('in-flight accounting', () => {
  it('a request whose client goes away releases its slot and its write bytes; keep-alive requests each release theirs', async () => {
    t = await createTestApp({ config: { maxInFlightRequests: 3, indexingPressureBytes: 1_000_000 } });
    const url = await t.listen();
    await t.request('PUT', '/gone', { settings: { refresh_interval: '1s' } });
    // Held until the next scheduled refresh; the client gives up first.
    const abort = new AbortController();
    const held = fetch(`${url}/gone/_doc/1?refresh=wait_for`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 1 }), signal: abort.signal,
    }).catch((e: Error) => e);
    await expect.poll(() => t!.app.http.admission.stats().inFlightRequests).toBe(1);
    expect(t.app.http.admission.stats().writeBytes).toBeGreaterThan(0);
    abort.abort();
    expect(await held).toBeInstanceOf(Error);
    await expect.poll(() => t!.app.http.admission.stats()).toEqual({ inFlightRequests: 0, writeBytes: 0 });
    // More requests than the limit, one after another on the same keep-alive connections.
    for (let i = 0; i < 10; i++) expect((await fetch(`${url}/gone/_search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
    await expect.poll(() => t!.app.http.admission.stats()).toEqual({ inFlightRequests: 0, writeBytes: 0 });
  });
});

describe('indexing pressure', () => {
  const bulk = (n: number) => Array.from({ length: n }, (_, i) => [{ index: { _index: 'p', _id: String(i) } }, { text: 'x'.repeat(40) }]).flat();

  it('rejects a write whose bytes would pass the limit, with ES\'s coordinating-operation message', async () => {
    t = await createTestApp({ config: { indexingPressureBytes: 2000 } });
    expect((await t.bulk('/_bulk', bulk(5))).status).toBe(200);
    const res = await t.bulk('/_bulk', bulk(50));
    expectErrorType(res, 429, 'es_rejected_execution_exception',
      /^rejected execution of coordinating operation \[coordinating_and_primary_bytes=0, replica_bytes=0, all_bytes=0, coordinating_operation_bytes=\d+, max_coordinating_and_primary_bytes=2000\]$/);
    // Nothing of the rejected request was applied, and the budget is free again.
    await t.request('POST', '/p/_refresh');
    expect((await t.request('GET', '/p/_count')).body.count).toBe(5);
    expect(t.app.http.admission.stats().writeBytes).toBe(0);
    // Searches are not writes: the budget does not apply to them.
    expect((await t.request('POST', '/p/_search', { query: { match: { text: 'x'.repeat(3000) } } })).status).toBe(200);
  });

  it('counts a chunked body (no Content-Length) as it streams in', async () => {
    t = await createTestApp({ config: { indexingPressureBytes: 2000 } });
    const url = await t.listen();
    const text = bulk(50).map((l) => JSON.stringify(l)).join('\n') + '\n';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let o = 0; o < bytes.length; o += 500) controller.enqueue(bytes.subarray(o, o + 500));
        controller.close();
      },
    });
    const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(429);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('es_rejected_execution_exception');
    await expect.poll(() => t!.app.http.admission.stats().writeBytes).toBe(0);
  });
});

describe('indexing buffer budget', () => {
  it('refreshes the largest shards once unrefreshed documents pass the budget', async () => {
    t = await createTestApp({ config: { indexBufferBytes: 64 * 1024 } });
    await t.request('PUT', '/buf', { settings: { refresh_interval: '-1', number_of_shards: 2 } });
    const lines = Array.from({ length: 1000 }, (_, i) => [{ index: { _id: String(i) } }, { text: `document ${i} ${'y'.repeat(100)}` }]).flat();
    expect((await t.bulk('/buf/_bulk', lines)).body.errors).toBe(false);
    // No refresh was asked for (and the interval is off), yet documents became searchable.
    await expect.poll(async () => (await t!.request('GET', '/buf/_count')).body.count, { timeout: 5000 }).toBeGreaterThan(0);
    const buffered = t.app.indices.get('buf')!.shards.reduce((n, s) => n + s.bufferedBytes, 0);
    expect(buffered).toBeLessThanOrEqual(64 * 1024);
  });

  it('throttles writes once buffered and refreshing documents pass 1.5x the budget: answered later, never rejected', async () => {
    t = await createTestApp({ config: { indexBufferBytes: 64 * 1024 } });
    await t.request('PUT', '/thr', { settings: { refresh_interval: '-1' } });
    const bulk = (from: number) => Array.from({ length: 500 }, (_, i) => [{ index: { _id: String(from + i) } }, { text: `document ${from + i} ${'z'.repeat(100)}` }]).flat();
    // ~230 KB of buffered documents per request, against a 96 KB throttling limit; two in flight.
    const answers = await Promise.all([t.bulk('/thr/_bulk', bulk(0)), t.bulk('/thr/_bulk', bulk(500))]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body.errors).toBe(false);
    }
    // No refresh was asked for and the interval is off: the held answers waited for refreshes
    // that built what they wrote, so every acknowledged document is searchable already.
    expect((await t.request('GET', '/thr/_count')).body.count).toBe(1000);
    const indexing = (await t.request('GET', '/thr/_stats/indexing')).body._all.primaries.indexing;
    expect(indexing.is_throttled).toBe(false);
    expect(indexing.throttle_time_in_millis).toBeGreaterThan(0);
    expect(t.app.indices.memoryController.throttledRequests).toBe(0);
  });
});
