/**
 * `threadsearch export` from a threadsearch server to a recording mock of an Elasticsearch 8.x
 * cluster: the exact requests ES would get (method, path, content type, basic auth, bodies) in
 * order, a 429 retried with back-off, a rejected document reported, `.sparse_model_2` reported or
 * mapped to `.elser_model_2`, and refused credentials named.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadsearch, type ServerProcess } from '../../src/cli/server-process.js';
import { cli, SUPERUSER_KEY, tempFiles } from './cli-harness.js';
import { startEs8Mock, type Es8Mock } from './es8-mock.js';
import { book, BOOKS_MAPPINGS, createSource, ELSER_PIPELINE } from './export-fixture.js';

const BOOKS = 45;
const NOTES = 5;
const BASIC = `Basic ${Buffer.from('elastic:changeme').toString('base64')}`;
let source: ServerProcess;
let dir: string;
const mocks: Es8Mock[] = [];

beforeAll(async () => {
  source = await startThreadsearch(['--threads', '1'], { apiKey: SUPERUSER_KEY });
  await createSource(source.url, BOOKS, NOTES);
  dir = tempFiles({});
}, 60_000);
afterAll(async () => {
  await source?.stop();
  await Promise.all(mocks.map((m) => m.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function mock(options: Partial<Parameters<typeof startEs8Mock>[0]> = {}): Promise<Es8Mock> {
  const m = await startEs8Mock({ authorization: BASIC, ...options });
  mocks.push(m);
  return m;
}

const run = (m: Es8Mock, ...more: string[]) =>
  cli(['export', '--from', source.url, '--from-api-key', SUPERUSER_KEY, '--to', m.url, '--to-user', 'elastic:changeme', '--concurrency', '1', '--batch-size', '20', '--checkpoint', `${dir}/${Math.random()}.json`, ...more], { cwd: dir });

const expectedBooksCreate = {
  settings: {
    'index.analysis.analyzer.folded.filter': ['lowercase', 'asciifolding'],
    'index.analysis.analyzer.folded.tokenizer': 'standard',
    'index.analysis.analyzer.folded.type': 'custom',
    'index.number_of_replicas': '1',
    'index.number_of_shards': '2',
    'index.routing.allocation.include._tier_preference': 'data_content',
  },
  mappings: BOOKS_MAPPINGS,
  aliases: { 'old-books': { filter: { range: { year: { lt: 1950 } } } }, library: {} },
};

describe('threadsearch export to Elasticsearch 8 (recording mock)', () => {
  it('sends exactly the requests ES 8 expects, in order, and retries a 429', async () => {
    const es = await mock({ rejectBulkRequests: [2] });
    const r = await run(es, '--model-map', '.sparse_model_2=.elser_model_2');
    expect(r.stderr).toContain(`to ${es.url} (elasticsearch 8.15.1)`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\[books\\] ${BOOKS} documents copied .*count verified: ${BOOKS} on both`));
    expect(r.stdout).toContain('note: pipeline [elser-v2]: inference model .sparse_model_2 → .elser_model_2');
    expect(r.stdout).not.toContain('which Elasticsearch does not have');

    const json = 'application/json';
    const seen = es.requests.map((q) => `${q.method} ${q.path}`);
    expect(seen).toEqual([
      'GET /', 'HEAD /books', 'HEAD /notes', 'GET /_ingest/pipeline/elser-v2', 'PUT /_ingest/pipeline/elser-v2',
      'PUT /books', 'POST /_bulk', 'POST /_bulk', 'POST /_bulk', 'POST /_bulk', // 20 + (20 rejected with 429, then sent again) + 5
      'PUT /books/_settings', 'POST /books/_refresh', 'GET /books/_count',
      'PUT /notes', 'POST /_bulk', 'POST /notes/_refresh', 'GET /notes/_count',
    ]);
    for (const q of es.requests) {
      expect(q.authorization).toBe(BASIC);
      if (q.body === undefined) expect(q.contentType).toBeUndefined();
      else expect(q.contentType).toBe(q.path === '/_bulk' ? 'application/x-ndjson' : json);
    }
    const body = (i: number) => es.requests[i].body;
    expect(body(4)).toEqual({ ...ELSER_PIPELINE, processors: [{ inference: { ...ELSER_PIPELINE.processors[0].inference, model_id: '.elser_model_2' } }] });
    expect(body(5)).toEqual(expectedBooksCreate);
    // Every document once with its id, its stored source (vectors included) as it is; no pipeline runs.
    expect(body(6)).toEqual(Array.from({ length: 20 }, (_, i) => [{ index: { _index: 'books', _id: `b${i}` } }, book(i)]).flat());
    expect(body(7)).toEqual(body(8)); // the batch answered 429 is sent again unchanged
    expect(es.requests.filter((q) => q.path === '/_bulk').every((q) => !q.path.includes('pipeline'))).toBe(true);
    expect(body(10)).toEqual({ 'index.default_pipeline': 'elser-v2' }); // after the documents
    expect(body(13)).toEqual({ settings: { 'index.number_of_replicas': '1', 'index.number_of_shards': '1', 'index.routing.allocation.include._tier_preference': 'data_content' }, mappings: { properties: { body: { type: 'text' } } } });
    expect([...es.docs.get('books')!.keys()].sort()).toEqual(Array.from({ length: BOOKS }, (_, i) => `b${i}`).sort());
    expect(es.docs.get('books')!.get('b7')).toEqual(book(7));
    expect(es.docs.get('notes')!.size).toBe(NOTES);
    expect(es.indices.has('.internal')).toBe(false);
  }, 60_000);

  it('reports .sparse_model_2 without --model-map and a rejected document with a count mismatch (exit 3)', async () => {
    const es = await mock({ badDocIds: ['b7'] });
    const r = await run(es, '--index', 'books');
    expect(r.code).toBe(3);
    expect(es.pipelines.get('elser-v2')).toEqual(ELSER_PIPELINE);
    expect(r.stdout).toContain('note: pipeline [elser-v2]: runs .sparse_model_2, which Elasticsearch does not have — deploy ELSER and export again with --model-map .sparse_model_2=.elser_model_2');
    expect(r.stdout).toMatch(new RegExp(`\\[books\\] ${BOOKS - 1} documents copied .*; 1 failed; COUNT MISMATCH: source ${BOOKS}, target ${BOOKS - 1}`));
    expect(r.stdout).toContain("  id b7: 400 document_parsing_exception: [1:42] failed to parse field [year]");
  }, 60_000);

  it('names the target and the flags when the cluster refuses the credentials; nothing is written', async () => {
    const es = await mock({ authorization: `Basic ${Buffer.from('elastic:right').toString('base64')}` });
    const r = await run(es);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`threadsearch export: ${es.url} refused the credentials (401 security_exception: unable to authenticate user [elastic] for REST request [/]); pass a valid --to-api-key or --to-user user:password (or --api-key)\n`);
    expect(es.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /']);
  }, 60_000);
});
