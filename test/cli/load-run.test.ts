/**
 * `threadsearch bench`'s two loops report latency the same way: percentiles of the 2xx answers in
 * fractional milliseconds (the closed loop's came from autocannon's histogram, which keeps whole
 * milliseconds, so a fast search read p50 0 ms).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../src/cli/bench/load-run.js';
import type { RequestTemplate } from '../../src/cli/bench/scenarios.js';

let server: http.Server;
let url: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = req.url === '/fail' ? 503 : 200;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

const template = (path: string): RequestTemplate => ({ kind: 'search', method: 'POST', path, contentType: 'application/json', body: () => '{}' });

describe('runLoad latencies', () => {
  it('closed loop: fractional milliseconds of the 2xx answers, in order', async () => {
    const r = await runLoad({ url, headers: {}, requests: [template('/ok')], connections: 2, amount: 200 });
    expect(r.mode).toBe('closed');
    expect(r.statuses).toEqual({ 200: 200 });
    const l = r.latency_ms;
    expect(l.p50).toBeGreaterThan(0);
    // A whole number at each of these readings would mean the histogram's rounding is back.
    expect([l.p50, l.p90, l.p99, l.max].some((x) => !Number.isInteger(x))).toBe(true);
    expect(l.p50).toBeLessThanOrEqual(l.p90);
    expect(l.p90).toBeLessThanOrEqual(l.p99);
    expect(l.p99).toBeLessThanOrEqual(l.p999);
    expect(l.p999).toBeLessThanOrEqual(l.max);
  });

  it('closed loop: answers that are not 2xx are counted by status and kept out of the latencies', async () => {
    const r = await runLoad({ url, headers: {}, requests: [template('/fail')], connections: 1, amount: 20 });
    expect(r.statuses).toEqual({ 503: 20 });
    expect(r.throughput_rps).toBe(0);
    expect(r.latency_ms.p50).toBeNaN();
  });

  it('open loop: the same fields', async () => {
    const r = await runLoad({ url, headers: {}, requests: [template('/ok')], connections: 2, amount: 20, rate: 200 });
    expect(r.mode).toBe('open');
    expect(r.statuses).toEqual({ 200: 20 });
    expect(r.latency_ms.p50).toBeGreaterThan(0);
    expect(r.latency_ms.p999).toBeLessThanOrEqual(r.latency_ms.max);
  });
});
