/**
 * The REST layer's free lists of reusable buffers (http/free-buffers.ts) are dropped at the node's
 * idle collection after segment work, so an idle node does not keep them; requests after that
 * allocate them again and answer as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { freeBodyBuffers } from '../../src/http/body-reader.js';
import { freeJsonChunks } from '../../src/http/json-chunks.js';

let t: TestApp;
let url = '';
beforeAll(async () => {
  t = await createTestApp();
  url = await t.listen();
});
afterAll(async () => t.close());

/** ~400 KB of NDJSON: read into a reused body buffer, answered in 64 KB chunks from the free list. */
function bulkBody(n: number): string {
  let out = '';
  for (let i = 0; i < 3000; i++) out += `{"index":{"_index":"idle-free","_id":"${n}-${i}"}}\n${JSON.stringify({ n, text: `document ${i} ${'y'.repeat(90)}` })}\n`;
  return out;
}

async function bulk(n: number): Promise<void> {
  const res = await fetch(`${url}/_bulk?refresh=true`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: bulkBody(n) });
  expect(res.status).toBe(200);
  expect((await res.json()).errors).toBe(false);
}

describe('free buffers at the idle collection', () => {
  it('are dropped once segment work has stopped, and come back with the next load', async () => {
    await bulk(1);
    expect(freeBodyBuffers()).toBeGreaterThan(0);
    expect(freeJsonChunks()).toBeGreaterThan(0);

    const deadline = Date.now() + 15_000;
    while ((freeBodyBuffers() > 0 || freeJsonChunks() > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect([freeBodyBuffers(), freeJsonChunks()]).toEqual([0, 0]);

    await bulk(2);
    expect(freeBodyBuffers()).toBeGreaterThan(0);
    const count = await t.request('GET', '/idle-free/_count');
    expect(count.body.count).toBe(6000);
  });
});
