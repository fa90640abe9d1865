/**
 * Reused response chunks (http/json-chunks.ts): a `_bulk` response's 64 KB chunks go back to the
 * free list only once the response has been written to the socket, so responses in flight at once —
 * and ones a slow client has not read yet — keep their own bytes, while later responses take the
 * chunks given back instead of allocating.
 */
import { getText } from '../support/slow-reader.js';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_CHUNK_BYTES, freeJsonChunks, jsonChunksOf } from '../../src/http/json-chunks.js';
import { sendRest } from '../../src/http/rest.js';

const item = (n: number, i: number) => ({ index: { _index: 'bulk', _id: `r${n}-${i}`, _version: 1, result: 'created', _seq_no: i, status: 201 } });
const items = (n: number, count: number) => Array.from({ length: count }, (_, i) => item(n, i));
const text = (n: number, count: number) => JSON.stringify({ took: 1, errors: false, items: items(n, count) });

let app: FastifyInstance;
let port = 0;

beforeAll(async () => {
  app = Fastify();
  app.get('/', (req, reply) => {
    const q = req.query as { n: string; count: string; hold?: string };
    // A client that reads late: the socket holds its writes (corked) for `hold` ms.
    const socket = reply.raw.socket;
    if (q.hold !== undefined && socket !== null) {
      socket.cork();
      setTimeout(() => socket.uncork(), Number(q.hold));
    }
    sendRest(reply, { body: jsonChunksOf('{"took":1,"errors":false,"items":[', items(Number(q.n), Number(q.count)), ']}') });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await app.close();
});

function get(n: number, count: number, readAfterMs = 0, query = ''): Promise<string> {
  return getText(port, `/?n=${n}&count=${count}${query}`, readAfterMs);
}

describe('reused JSON response chunks', () => {
  it('answers responses in flight at once each with its own bytes, and gives the chunks back once written', async () => {
    const texts = await Promise.all(Array.from({ length: 8 }, (_, n) => get(n, 5_000)));
    texts.forEach((t, n) => expect(t).toBe(text(n, 5_000)));
    expect(freeJsonChunks()).toBeGreaterThan(0);
  });

  it('keeps the bytes of responses clients have not read yet while others take the chunks given back', async () => {
    const slow = Array.from({ length: 4 }, (_, n) => get(1_000 + n, 5_000, 0, '&hold=300'));
    for (let round = 0; round < 3; round++) {
      const fast = await Promise.all(Array.from({ length: 4 }, (_, n) => get(2_000 + round * 10 + n, 5_000)));
      fast.forEach((t, n) => expect(t).toBe(text(2_000 + round * 10 + n, 5_000)));
    }
    (await Promise.all(slow)).forEach((t, n) => expect(t).toBe(text(1_000 + n, 5_000)));
  });

  it('writes a new response into chunks given back, and gives each back once', async () => {
    await get(3_000, 5_000);
    const free = freeJsonChunks();
    expect(free).toBeGreaterThan(0);
    const body = jsonChunksOf('[', [item(1, 1)], ']');
    expect(freeJsonChunks()).toBe(free - 1);
    expect(body.chunks[0].buffer.byteLength).toBe(JSON_CHUNK_BYTES);
    body.release();
    body.release();
    expect(freeJsonChunks()).toBe(free);
  });

  it('gives the chunks back after copying the text for filter_path and pretty', async () => {
    await get(4_000, 5_000);
    const free = freeJsonChunks();
    // sendRest sends the text, which server.ts's onSend hook filters or indents (not registered here).
    expect(await get(4_001, 2_000, 0, '&filter_path=items.index._id')).toBe(text(4_001, 2_000));
    expect(await get(4_002, 2_000, 0, '&pretty')).toBe(text(4_002, 2_000));
    expect(freeJsonChunks()).toBe(free);
  });
});
