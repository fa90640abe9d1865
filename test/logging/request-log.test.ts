/**
 * The debug request log: one line per request with method, path, status, took, bytes and the API
 * key id; no secret anywhere (Authorization headers, keys, security API bodies, credentials in the
 * query string); and no line at all at the default level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loggablePath } from '../../src/http/request-log.js';
import { captureLog } from '../support/log-capture.js';
import { createSecureTestApp, role, SUPERUSER, SUPERUSER_KEY, type SecureTestApp } from '../support/secure-app.js';

let app: SecureTestApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('request log', () => {
  it('at debug: one line per request with its fields, and no secret in the whole log', async () => {
    const log = captureLog('debug');
    app = await createSecureTestApp({ logger: log.logger });
    await app.request('PUT', '/books', { mappings: { properties: { t: { type: 'text' } } } });
    const key = await app.createKey('reader', role('books', ['read', 'write']));
    const put = await app.as(key.encoded, 'PUT', '/books/_doc/1?refresh=true', { t: 'hello' });
    expect(put.status).toBe(201);
    const search = await app.as(key.encoded, 'GET', '/books/_search?q=hello', undefined);
    expect(search.status).toBe(200);
    // ES refuses the unknown parameter; the line is still written, without the value.
    expect((await app.as(key.encoded, 'GET', '/books/_search?q=hello&api_key=leaked-in-url')).status).toBe(400);
    await app.as(null, 'GET', '/books/_search');
    await app.request('GET', `/_security/api_key?id=${key.id}`);

    const requests = log.lines().filter((l) => l.msg === 'request');
    const searchLine = requests.find((l) => l.path === '/books/_search?q=hello');
    expect(searchLine).toMatchObject({ level: 20, method: 'GET', status: 200, api_key_id: key.id, user: 'elastic' });
    expect(requests.find((l) => l.path === '/books/_search?q=hello&api_key=<redacted>')).toMatchObject({ status: 400, api_key_id: key.id });
    expect(searchLine!.took_ms).toBeGreaterThan(0);
    expect(searchLine!.bytes).toBe(Buffer.byteLength(search.text));
    // The bootstrap key is not an API key of the store: the line names its user.
    expect(requests.find((l) => l.path === '/books' && l.method === 'PUT')).toMatchObject({ status: 200, api_key_id: null, user: 'elastic' });
    expect(requests.find((l) => l.path === '/books/_search' && l.status === 401)).toMatchObject({ api_key_id: null, user: null });
    expect(requests.filter((l) => l.path.startsWith('/_security/api_key'))).toHaveLength(2);

    const text = log.text();
    for (const secret of [SUPERUSER.secret, SUPERUSER_KEY, key.encoded, key.apiKey, 'leaked-in-url']) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
  });

  it('writes nothing per request at the default level', async () => {
    const log = captureLog('info');
    app = await createSecureTestApp({ logger: log.logger });
    await app.request('GET', '/');
    await app.request('GET', '/_cluster/health');
    expect(log.lines().filter((l) => l.msg === 'request')).toEqual([]);
  });
});

describe('loggablePath', () => {
  it.each([
    ['/i/_search', '/i/_search'],
    ['/i/_search?q=a&apikey=x&access_token=y&password=z&size=3', '/i/_search?q=a&apikey=<redacted>&access_token=<redacted>&password=<redacted>&size=3'],
    ['/i/_search?API%5FKEY=x', '/i/_search?API%5FKEY=<redacted>'],
    ['/i/_search?pretty', '/i/_search?pretty'],
  ])('%s → %s', (url, expected) => {
    expect(loggablePath(url)).toBe(expected);
  });

  it('caps a huge path', () => {
    expect(loggablePath(`/i/_doc/${'x'.repeat(5000)}`)).toHaveLength(513);
  });
});
