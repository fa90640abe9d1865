/**
 * Search workers' page slots end to end (workers/page-slots.ts, common/page-leases.ts): a real server
 * with two search threads answers hundreds of `_search` and `_msearch` requests at once — more
 * batches than the slots hold, so some take fresh buffers — each with the bytes it gives alone; every
 * slot comes back once the responses are written; requests whose connections close before their
 * answer do not keep a slot.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPageLeases } from '../../src/common/page-leases.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { seed } from '../api/es.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

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

async function settled(): Promise<number> {
  for (let i = 0; i < 50 && openPageLeases() > 0; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return openPageLeases();
}

describe('page slots through a server', () => {
  it('answers many searches at once with the bytes each gives alone, and gives every slot back', async () => {
    const alone = new Map<string, string>();
    for (let i = 0; i < queries.length; i++) {
      alone.set(`s${i}`, await search(i));
      alone.set(`m${i}`, await msearch(i));
    }
    expect(alone.get('s0')).toMatch(/"hits":\[\{"_index":"pages"/);
    // Pages did wait in slots (the search threads' slots are leased here, on the coordinator).
    let most = 0;
    const sample = setInterval(() => {
      most = Math.max(most, openPageLeases());
    }, 1);
    for (let round = 0; round < 2; round++) {
      const all = await Promise.all(Array.from({ length: 240 }, (_, i) => (i % 2 === 0 ? search(i >> 1) : msearch(i >> 1))));
      all.forEach((text, i) => expect(text).toBe(alone.get(`${i % 2 === 0 ? 's' : 'm'}${(i >> 1) % queries.length}`)));
    }
    clearInterval(sample);
    expect(most).toBeGreaterThan(0);
    // Every page was written: nothing waits for the collector.
    expect(openPageLeases()).toBe(0);
  }, 60_000);

  it('does not keep a slot for requests whose connections close first', async () => {
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
    expect(await settled()).toBe(0);
    const after = await Promise.all(Array.from({ length: 40 }, () => msearch(3)));
    for (const text of after) expect(text).toBe(expected);
    expect(openPageLeases()).toBe(0);
  }, 60_000);
});
