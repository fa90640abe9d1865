/**
 * `threadsearch load` against a secured server started for this file: JSONL and BEIR sources,
 * per-item failures summarised without stopping, --resume-from, and bad input (missing file,
 * malformed line, unreachable URL, wrong key) — a clear message, a non-zero exit, nothing written.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../src/cli/load/bulk-loader.js';
import type { EsClient } from '../../src/cli/es-client.js';
import { startThreadsearch, type ServerProcess } from '../../src/cli/server-process.js';
import { call, cli, closedPort, SUPERUSER_KEY, tempFiles } from './cli-harness.js';

let server: ServerProcess;
let dir: string;
const lines = (n: number, from = 0) => Array.from({ length: n }, (_, i) => JSON.stringify({ _id: `d${from + i}`, title: `document number ${from + i}`, n: from + i })).join('\n') + '\n';

beforeAll(async () => {
  server = await startThreadsearch(['--threads', '1'], { apiKey: SUPERUSER_KEY });
  dir = tempFiles({
    'docs.jsonl': lines(25),
    'docs.ndjson': lines(3, 100),
    'bad.jsonl': `${lines(2)}{"_id":"x", oops\n${lines(2, 50)}`,
    'array.jsonl': '[1,2]\n',
    'mixed.jsonl': '{"_id":"a","count":1}\n{"_id":"b","count":"many"}\n{"_id":"c","count":3}\n',
    'beir/corpus.jsonl': '{"_id":"b1","title":"T1","text":"first"}\n{"_id":"b2","title":"T2","text":"second"}\n',
    'notbeir/readme.txt': 'x',
  });
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const key = ['--api-key', SUPERUSER_KEY];

describe('threadsearch load', () => {
  it('loads a JSONL file with its _id values as document ids and prints a summary', async () => {
    const r = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'docs', '--url', server.url, ...key, '--batch', '10']);
    expect(r.stderr).toContain('loading 25 documents');
    expect(r.stdout).toMatch(/loaded 25 documents into \[docs\] in [\d.]+ s \(\d[\d ]* docs\/s, 3 _bulk requests\); none failed/);
    expect(r.code).toBe(0);
    expect((await call(server.url, 'GET', '/docs/_count')).body.count).toBe(25);
    const doc = await call(server.url, 'GET', '/docs/_doc/d7');
    expect(doc.body._source).toEqual({ title: 'document number 7', n: 7 });
  });

  it('reads NDJSON and BEIR folders (corpus.jsonl) alike', async () => {
    expect((await cli(['load', join(dir, 'docs.ndjson'), '--index', 'nd', '--url', server.url, ...key])).code).toBe(0);
    expect((await call(server.url, 'GET', '/nd/_doc/d101')).body._source.n).toBe(101);
    const r = await cli(['load', join(dir, 'beir'), '--index', 'beir', '--url', server.url, ...key]);
    expect(r.code).toBe(0);
    expect((await call(server.url, 'GET', '/beir/_doc/b2')).body._source).toEqual({ title: 'T2', text: 'second' });
  });

  it('reports rejected documents by type and line without stopping, and exits 3', async () => {
    const r = await cli(['load', join(dir, 'mixed.jsonl'), '--index', 'mixed', '--url', server.url, ...key, '--batch', '1']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('loaded 2 documents into [mixed]');
    expect(r.stdout).toContain('1 failed');
    expect(r.stdout).toMatch(/failures by type: document_parsing_exception 1/);
    expect(r.stdout).toMatch(/line 2 \(id b\): 400 document_parsing_exception: .*\[count\]/);
    expect((await call(server.url, 'GET', '/mixed/_count')).body.count).toBe(2);
  });

  it('--resume-from skips the lines before it', async () => {
    const r = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'resumed', '--url', server.url, ...key, '--resume-from', '21']);
    expect(r.code).toBe(0);
    expect((await call(server.url, 'GET', '/resumed/_count')).body.count).toBe(5);
    expect((await call(server.url, 'GET', '/resumed/_doc/d20')).status).toBe(200);
    expect((await call(server.url, 'GET', '/resumed/_doc/d19')).status).toBe(404);
  });

  it('a malformed line stops the load before anything is written (exit 2, file:line)', async () => {
    const r = await cli(['load', join(dir, 'bad.jsonl'), '--index', 'bad', '--url', server.url, ...key]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^threadsearch load: .*bad\.jsonl:3: malformed JSON \(.*\): \{"_id":"x", oops\n$/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await call(server.url, 'GET', '/bad')).status).toBe(404);
    const arr = await cli(['load', join(dir, 'array.jsonl'), '--index', 'bad', '--url', server.url, ...key]);
    expect(arr.code).toBe(2);
    expect(arr.stderr).toContain('array.jsonl:1: a line must be one JSON object (a document), got an array');
  });

  it('a missing file, a folder without corpus.jsonl, a past-the-end --resume-from: exit 2', async () => {
    const missing = await cli(['load', join(dir, 'nope.jsonl'), '--index', 'x', '--url', server.url, ...key]);
    expect(missing).toMatchObject({ code: 2, stderr: `threadsearch load: no such file or folder [${join(dir, 'nope.jsonl')}]\n` });
    const folder = await cli(['load', join(dir, 'notbeir'), '--index', 'x', '--url', server.url, ...key]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('is not a BEIR dataset: it has no corpus.jsonl');
    const past = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'x', '--url', server.url, ...key, '--resume-from', '99']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('--resume-from 99 is past the end');
    expect((await call(server.url, 'GET', '/x')).status).toBe(404);
  });

  it('an unreachable URL, a wrong key, an invalid index name, a bad flag: clear message, non-zero exit', async () => {
    const closed = await closedPort();
    const down = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'x', '--url', `http://127.0.0.1:${closed}`, ...key]);
    expect(down.code).toBe(1);
    expect(down.stderr).toBe(`threadsearch load: cannot reach http://127.0.0.1:${closed}: ECONNREFUSED\n`);
    const wrong = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'x', '--url', server.url], { env: { THREADSEARCH_API_KEY: Buffer.from('nobody:nothing').toString('base64') } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused the credentials \(401 security_exception: .*\); pass a valid --api-key/);
    const name = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'Upper', '--url', server.url, ...key]);
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('cannot create index [Upper]: invalid_index_name_exception');
    const flag = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'x', '--batch', 'ten']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--batch must be an integer ≥ 1, got [ten]');
    expect((await call(server.url, 'GET', '/x')).status).toBe(404);
  });
});

describe('bulkLoad', () => {
  it('retries a request answered 429 and the items answered 429, with back-off, and counts them', async () => {
    const bodies: string[] = [];
    let calls = 0;
    const client = {
      request: async (_m: string, _p: string, body: string) => {
        bodies.push(body);
        calls++;
        if (calls === 1) return { status: 429, body: { error: { type: 'es_rejected_execution_exception' } } };
        const docs = body.trim().split('\n').length / 2;
        // The second answer rejects the last item; the third accepts it.
        const items = Array.from({ length: docs }, (_, i) => ({ index: calls === 2 && i === docs - 1 ? { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'busy' } } : { status: 201 } }));
        return { status: 200, body: { errors: items.some((i) => i.index.status !== 201), items } };
      },
    } as unknown as EsClient;
    const docs = (async function* () {
      for (let i = 1; i <= 3; i++) yield { line: i, id: String(i), source: { i } };
    })();
    const waits: number[] = [];
    const s = await bulkLoad(client, docs, { index: 'i', batch: 10, concurrency: 1, maxRetries: 3, backoffMs: (a) => (waits.push(a), 1) });
    expect(s).toMatchObject({ indexed: 3, failed: 0, requests: 3, retried: 2 });
    expect(waits).toEqual([0, 1]);
    expect(bodies[2].trim().split('\n')).toHaveLength(2); // only the rejected item went again
  });

  it('gives up on a document still rejected after --max-retries and records it as failed', async () => {
    const client = { request: async () => ({ status: 429, body: {} }) } as unknown as EsClient;
    const docs = (async function* () {
      yield { line: 1, id: 'a', source: {} };
    })();
    const s = await bulkLoad(client, docs, { index: 'i', batch: 10, concurrency: 1, maxRetries: 2, backoffMs: () => 1 });
    expect(s).toMatchObject({ indexed: 0, failed: 1, requests: 3, failuresByType: { es_rejected_execution_exception: 1 } });
  });
});
