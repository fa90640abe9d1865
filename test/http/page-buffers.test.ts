/**
 * Search workers' page buffers going round end to end (workers/page-buffers.ts,
 * common/page-leases.ts): a real server with two search threads answers hundreds of `_search` and
 * `_msearch` requests at once, each with the bytes it gives alone, sending read-out buffers back to
 * the workers meanwhile; requests whose connections close before their answer leave later answers whole.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnedPageBuffers } from '../../src/common/page-leases.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { seed } from '../api/es.js';

let t: TestApp;
let host = '';
let port = 0;
const words = ['amber', 'birch', 'cedar', 'dune', 'élan', 'fjord', 'grüße'];
const queries = Array.from({ length: 40 }, (_, i) => `${words[i % 7]} ${words[(i * 3 + 1) % 7]}`);

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seed(t, 'pages', Array.from({ length: 300 }, (_, i): [string, Record<string, unknown>] => [`d${i}`, {
    text: `${words[i % 7]} ${words[(i * 5) % 7]} ${words[(i * 2) % 7]} ${'ß'.repeat(i % 50)}`, n: i,
  }]));
  const url = new URL(await t.listen());
  host = url.hostname;
  port = Number(url.port);
}, 60_000);
afterAll(async () => t.close());

const searchBody = (q: string): string => JSON.stringify({ query: { match: { text: q } }, size: 10 });
const msearchBody = (i: number): string => {
  let out = '';
  for (let j = 0; j < 10; j++) out += `{}\n${searchBody(queries[(i + j) % queries.length])}\n`;
  return out;
};

/** A response's text without its `took` (the only part that differs between runs). */
function post(path: string, body: string, type: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method: 'POST', path, agent: false, headers: { 'content-type': type } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts).toString('utf8').replace(/"took":\d+/g, '"took":0')));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const search = (i: number) => post('/pages/_search', searchBody(queries[i % queries.length]), 'application/json');
const msearch = (i: number) => post('/pages/_msearch', msearchBody(i), 'application/x-ndjson');

describe('page buffers through a server', () => {
  it('answers many searches at once with the bytes each gives alone, sending read-out buffers back', async () => {
    const alone = new Map<string, string>();
    for (let i = 0; i < queries.length; i++) {
      alone.set(`s${i}`, await search(i));
      alone.set(`m${i}`, await msearch(i));
    }
    expect(alone.get('s0')).toMatch(/"hits":\[\{"_index":"pages"/);
    const returned = returnedPageBuffers();
    for (let round = 0; round < 2; round++) {
      const all = await Promise.all(Array.from({ length: 240 }, (_, i) => (i % 2 === 0 ? search(i >> 1) : msearch(i >> 1))));
      all.forEach((text, i) => expect(text).toBe(alone.get(`${i % 2 === 0 ? 's' : 'm'}${(i >> 1) % queries.length}`)));
    }
    // Buffers went back to the workers meanwhile (the search threads' buffers are read out here, on the coordinator).
    expect(returnedPageBuffers()).toBeGreaterThan(returned);
  }, 60_000);

  it('answers whole after requests whose connections closed first', async () => {
    const expected = await msearch(3);
    await Promise.all(Array.from({ length: 80 }, (_, i) => new Promise<void>((resolve) => {
      const body = msearchBody(i);
      const socket = connect(port, host, () => {
        socket.write(`POST /pages/_msearch HTTP/1.1\r\nhost: x\r\ncontent-type: application/x-ndjson\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        socket.destroy();
        resolve();
      });
      socket.on('error', () => resolve());
    })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? msearch(3) : search(5))));
    const single = await search(5);
    after.forEach((text, i) => expect(text).toBe(i % 2 === 0 ? expected : single));
  }, 60_000);
});
