/**
 * Reused response buffers (http/response-buffers.ts): a buffer goes back to the free list only once
 * its response has been written, so responses in flight at once — and ones a slow client has not read
 * yet — keep their own bytes.
 */
import { createServer, type Server } from 'node:http';
import { getText } from '../support/slow-reader.js';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonPieces } from '../../src/common/json-pieces.js';
import { RESPONSE_BUFFER_BYTES, freeResponseBuffers, responseBytes } from '../../src/http/response-buffers.js';

/** A body of about `bytes` whose text names `n` everywhere, with a byte piece as a worker's page is. */
function body(n: number, bytes: number): JsonPieces {
  const page = new Uint8Array(Buffer.from(`[${`"page ${n} é",`.repeat(Math.ceil(bytes / 12))}"end ${n}"]`, 'utf8'));
  return JsonPieces.join('{"responses":[', [JsonPieces.object(`{"n":${n},"hits":`, page, '}')], ']}');
}

let server: Server;
let port = 0;
const sentWith = new Map<number, number>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const n = Number(url.searchParams.get('n'));
    const bytes = responseBytes(body(n, Number(url.searchParams.get('bytes'))), res);
    sentWith.set(n, bytes.buffer.byteLength);
    res.setHeader('content-length', bytes.length);
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function get(n: number, bytes: number, readAfterMs = 0): Promise<string> {
  return getText(port, `/?n=${n}&bytes=${bytes}`, readAfterMs);
}

describe('responseBytes', () => {
  it('answers many responses at once each with its own bytes, and reuses the buffers afterwards', async () => {
    const texts = await Promise.all(Array.from({ length: 60 }, (_, n) => get(n, 20_000)));
    texts.forEach((t, n) => expect(t).toBe(body(n, 20_000).toString()));
    expect(sentWith.get(0)).toBe(RESPONSE_BUFFER_BYTES);
    expect(freeResponseBuffers()).toBeGreaterThan(0);
    const again = await Promise.all(Array.from({ length: 20 }, (_, n) => get(100 + n, 30_000)));
    again.forEach((t, n) => expect(t).toBe(body(100 + n, 30_000).toString()));
  });

  it('keeps the bytes of responses clients have not read yet while others reuse buffers', async () => {
    const slow = Array.from({ length: 30 }, (_, n) => get(7_000 + n, 40_000, 200));
    const fast = await Promise.all(Array.from({ length: 40 }, (_, n) => get(8_000 + n, 40_000)));
    fast.forEach((t, n) => expect(t).toBe(body(8_000 + n, 40_000).toString()));
    (await Promise.all(slow)).forEach((t, n) => expect(t).toBe(body(7_000 + n, 40_000).toString()));
  });

  it('leaves small and large bodies to ordinary buffers', async () => {
    expect(await get(9_001, 500)).toBe(body(9_001, 500).toString());
    expect(sentWith.get(9_001)).not.toBe(RESPONSE_BUFFER_BYTES);
    expect(await get(9_002, 200_000)).toBe(body(9_002, 200_000).toString());
    expect(sentWith.get(9_002)).toBeGreaterThan(RESPONSE_BUFFER_BYTES);
  });
});
