/**
 * Requests Node's HTTP parser refuses before any route (http/client-errors.ts) are answered with ES
 * error bodies, and the server goes on serving.
 */
import { connect } from 'node:net';
import { maxHeaderSize } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { esClientError } from '../../src/http/client-errors.js';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ config: { requestTimeoutMs: 1_000 } });
  port = Number(new URL(await t.listen()).port);
});

afterAll(async () => t.close());

/** Sends `bytes` on a new connection and resolves with everything received until it closes. */
function raw(bytes: string | Buffer, end = true): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    socket.write(bytes);
    if (end) socket.end();
  });
}

function answer(text: string): { status: number; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1]);
  return { status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) };
}

describe('malformed HTTP gets ES error bodies', () => {
  it('raw non-ASCII bytes in the URL: 400 illegal_argument_exception, nothing of the URL echoed', async () => {
    const text = await raw(Buffer.concat([Buffer.from('GET /t/_search?q=t'), Buffer.from('ítulo-secret', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
    const { status, body } = answer(text);
    expect(status).toBe(400);
    expect(body.status).toBe(400);
    expect(body.error.type).toBe('illegal_argument_exception');
    expect(body.error.root_cause[0].type).toBe('illegal_argument_exception');
    expect(body.error.reason).toMatch(/^invalid HTTP request: /);
    expect(text).not.toContain('secret');
  });

  it('headers past the limit: 400 too_long_frame_exception, as ES answers one past http.max_header_size', async () => {
    const text = await raw(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(maxHeaderSize + 10)}\r\n\r\n`);
    const { status, body } = answer(text);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'too_long_frame_exception', reason: `HTTP header is larger than ${maxHeaderSize} bytes.` });
  });

  it('a body not sent in full within http.request_timeout: 408 timeout_exception, then close', async () => {
    const text = await raw('POST /_search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query"', false);
    const { status, body } = answer(text);
    expect(status).toBe(408);
    expect(body).toMatchObject({ status: 408, error: { type: 'timeout_exception' } });
  });

  it('the server answers the next request as usual', async () => {
    const text = await raw('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('esClientError on a connection with a response on its way', () => {
  function socketWith(headersSent: boolean | null): { socket: Socket; written: string[]; destroyed: () => boolean } {
    const written: string[] = [];
    let destroyed = false;
    const socket = {
      destroyed: false,
      writable: true,
      _httpMessage: headersSent === null ? null : { headersSent },
      write: (s: string) => written.push(s),
      destroy: () => {
        destroyed = true;
      },
    } as unknown as Socket;
    return { socket, written, destroyed: () => destroyed };
  }
  const parseError = Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', reason: 'Invalid method encountered' });

  it('writes nothing into a response whose headers are sent (a pipelined request\'s parse error), and closes', () => {
    const s = socketWith(true);
    esClientError(parseError, s.socket);
    expect(s.written).toEqual([]);
    expect(s.destroyed()).toBe(true);
  });

  it('answers when no response has started on the connection', () => {
    for (const state of [null, false]) {
      const s = socketWith(state);
      esClientError(parseError, s.socket);
      expect(s.written).toHaveLength(1);
      expect(s.written[0]).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(s.written[0]).toContain('"reason":"invalid HTTP request: Invalid method encountered"');
      expect(s.destroyed()).toBe(true);
    }
  });
});
