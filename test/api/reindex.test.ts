/**
 * `_reindex`, `_update_by_query`, `_delete_by_query`, `_rethrottle` and the tasks API (es-api.md
 * §6): response and status shapes, batches, queries, `max_docs`, `_source` filtering, `op_type`
 * and `conflicts`, failures in the middle of a reindex, slices, throttling, cancellation,
 * background tasks polled to completion, and results kept across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError, expectErrorType } from './es.js';

let t: TestApp;
const N = 12;

async function seed(app: TestApp, index: string, n = N, extra: (i: number) => Record<string, unknown> = () => ({})): Promise<void> {
  const lines: unknown[] = [];
  for (let i = 0; i < n; i++) lines.push({ index: { _index: index, _id: `d${i}` } }, { n: i, title: `doc ${i}`, kind: i % 2 === 0 ? 'even' : 'odd', ...extra(i) });
  const res = await app.bulk('/_bulk?refresh=true', lines);
  expect(res.body.errors).toBe(false);
}

async function count(index: string): Promise<number> {
  await t.request('POST', `/${index}/_refresh`);
  return (await t.request('GET', `/${index}/_count`)).body.count;
}

async function waitForTask(app: TestApp, id: string): Promise<TestResponse> {
  for (let i = 0; i < 500; i++) {
    const res = await app.request('GET', `/_tasks/${id}`);
    if (res.body.completed) return res;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`task ${id} did not complete`);
}

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  await seed(t, 'src');
});
afterAll(async () => t.close());

describe('POST /_reindex', () => {
  it('copies every document and answers with ES\'s response shape', async () => {
    const res = await t.request('POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'copy1' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      took: expect.any(Number), timed_out: false, total: N, updated: 0, created: N, deleted: 0, batches: 1, version_conflicts: 0, noops: 0,
      retries: { bulk: 0, search: 0 }, throttled_millis: 0, requests_per_second: -1, throttled_until_millis: 0, failures: [],
    });
    expect((await t.request('GET', '/copy1/_count')).body.count).toBe(N);
    expect((await t.request('GET', '/copy1/_doc/d3')).body._source).toEqual({ n: 3, title: 'doc 3', kind: 'odd' });
  });

  it('reads in batches of source.size, and counts updates on a second run', async () => {
    const res = await t.request('POST', '/_reindex', { source: { index: 'src', size: 5 }, dest: { index: 'copy1' } });
    expect(res.body).toMatchObject({ total: N, created: 0, updated: N, batches: 3 });
  });

  it('takes a query, max_docs and _source filtering', async () => {
    const res = await t.request('POST', '/_reindex', {
      source: { index: 'src', query: { term: { kind: 'even' } }, _source: { excludes: ['title'] } }, dest: { index: 'copy2' }, max_docs: 4,
    });
    expect(res.body).toMatchObject({ total: 4, created: 4, failures: [] });
    expect(await count('copy2')).toBe(4);
    const doc = (await t.request('GET', '/copy2/_doc/d0')).body._source;
    expect(doc).toEqual({ n: 0, kind: 'even' });
  });

  it('accepts several source indices and patterns', async () => {
    await seed(t, 'other', 3, (i) => ({ other: i }));
    const res = await t.request('POST', '/_reindex', { source: { index: ['src', 'oth*'] }, dest: { index: 'copy3' } });
    expect(res.body).toMatchObject({ total: N + 3, created: N });
    expect(res.body.updated).toBe(3);
  });

  it('counts version conflicts of op_type create: abort lists them, proceed does not', async () => {
    const abort = await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'copy1', op_type: 'create' } });
    expect(abort.status).toBe(200);
    expect(abort.body.version_conflicts).toBe(N);
    expect(abort.body.failures).toHaveLength(N);
    expect(abort.body.failures[0]).toMatchObject({ index: 'copy1', id: 'd0', status: 409, cause: { type: 'version_conflict_engine_exception' } });
    const proceed = await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'copy1', op_type: 'create' }, conflicts: 'proceed' });
    expect(proceed.body).toMatchObject({ version_conflicts: N, created: 0, failures: [] });
  });

  it('reports documents a pipeline fails in failures, writes the rest, and stops after that batch', async () => {
    await seed(t, 'mixed', 6, (i) => (i === 2 ? { title: 42 } : {}));
    await t.request('PUT', '/_ingest/pipeline/upper', { processors: [{ uppercase: { field: 'title' } }] });
    const res = await t.request('POST', '/_reindex', { source: { index: 'mixed' }, dest: { index: 'mixed-out', pipeline: 'upper' } });
    expect(res.body.created).toBe(5);
    expect(res.body.failures).toEqual([{
      index: 'mixed-out', id: 'd2', status: 400,
      cause: { type: 'illegal_argument_exception', reason: 'field [title] of type [java.lang.Integer] cannot be cast to [java.lang.String]' },
    }]);
    expect((await t.request('GET', '/mixed-out/_doc/d1')).body._source.title).toBe('DOC 1');
    // With batches of 2, the batch holding d2 is the last one: d0–d3 are attempted, d4–d5 are not.
    const batched = await t.request('POST', '/_reindex', { source: { index: 'mixed', size: 2 }, dest: { index: 'mixed-out2', pipeline: 'upper' } });
    expect(batched.body).toMatchObject({ created: 3, batches: 2 });
    expect(batched.body.failures).toHaveLength(1);
  });

  it('runs slices in parallel and sums their counts', async () => {
    const res = await t.request('POST', '/_reindex?slices=3', { source: { index: 'src', size: 2 }, dest: { index: 'sliced' } });
    expect(res.body).toMatchObject({ total: N, created: N, failures: [] });
    expect(await count('sliced')).toBe(N);
    const auto = await t.request('POST', '/_reindex?slices=auto', { source: { index: 'src' }, dest: { index: 'sliced' } });
    expect(auto.body).toMatchObject({ total: N, updated: N });
  });

  it('throttles to requests_per_second', async () => {
    const res = await t.request('POST', '/_reindex?requests_per_second=20', { source: { index: 'src', size: 4 }, dest: { index: 'throttled' } });
    expect(res.body).toMatchObject({ created: N, batches: 3, requests_per_second: 20 });
    // Batches of 4 at 20 docs/s start 200 ms apart: two waits.
    expect(res.body.throttled_millis).toBeGreaterThanOrEqual(300);
  });

  it('cannot recover fields that _source.excludes removed from the stored source', async () => {
    await t.request('PUT', '/excluded', { mappings: { _source: { excludes: ['secret'] }, properties: { secret: { type: 'keyword' } } } });
    await t.request('PUT', '/excluded/_doc/1?refresh=true', { title: 'kept', secret: 'indexed only' });
    expect((await t.request('POST', '/excluded/_count', { query: { term: { secret: 'indexed only' } } })).body.count).toBe(1);
    const res = await t.request('POST', '/_reindex?refresh=true', { source: { index: 'excluded' }, dest: { index: 'excluded-copy' } });
    expect(res.body.created).toBe(1);
    expect((await t.request('GET', '/excluded-copy/_doc/1')).body._source).toEqual({ title: 'kept' });
    expect((await t.request('POST', '/excluded-copy/_count', { query: { term: { secret: 'indexed only' } } })).body.count).toBe(0);
  });

  it('rejects bad requests with ES errors', async () => {
    expectEsError(await t.request('POST', '/_reindex', { source: { index: 'src' } }), 400, 'action_request_validation_exception', 'Validation Failed: 1: index must be specified;');
    expectEsError(await t.request('POST', '/_reindex', { dest: { index: 'x' } }), 400, 'action_request_validation_exception', 'Validation Failed: 1: use _all if you really want to copy from all existing indexes;');
    expectErrorType(await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, foo: 1 }), 400, 'x_content_parse_exception', /\[reindex\] unknown field \[foo\]$/);
    expectErrorType(await t.request('POST', '/_reindex', { source: { index: 'src', bogus: 1 }, dest: { index: 'x' } }), 400, 'x_content_parse_exception', /\[source\] unknown field \[bogus\]$/);
    expectErrorType(await t.request('POST', '/_reindex', '{"source": '), 400, 'x_content_parse_exception');
    expectEsError(await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, conflicts: 'maybe' }), 400, 'illegal_argument_exception', 'conflicts may only be "proceed" or "abort" but was [maybe]');
    expectEsError(await t.request('POST', '/_reindex?requests_per_second=0', { source: { index: 'src' }, dest: { index: 'x' } }), 400, 'illegal_argument_exception', '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
    expectEsError(await t.request('POST', '/_reindex?slices=0', { source: { index: 'src' }, dest: { index: 'x' } }), 400, 'illegal_argument_exception', '[slices] must be at least 1, was [0]');
    // Hostile: a slice count past index.max_slices_per_scroll is refused before anything runs.
    expectEsError(await t.request('POST', '/_reindex?slices=2147483647', { source: { index: 'src' }, dest: { index: 'x' } }), 400, 'illegal_argument_exception',
      'The number of slices [2147483647] is too large. It must be less than [1024]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.');
    expectEsError(await t.request('POST', '/src/_delete_by_query?slices=1025', { query: { match_all: {} } }), 400, 'illegal_argument_exception',
      'The number of slices [1025] is too large. It must be less than [1024]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.');
    expectEsError(await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'src' } }), 400, 'illegal_argument_exception', 'reindex cannot write into an index its reading from [src]');
    expectErrorType(await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, script: { source: 'ctx._source.a = 1' } }), 400, 'illegal_argument_exception');
    expectErrorType(await t.request('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'x', op_type: 'upsert' } }), 400, 'illegal_argument_exception', "opType must be 'create' or 'index', found: [upsert]");
    expectErrorType(await t.request('POST', '/_reindex', { source: { index: 'missing-src' }, dest: { index: 'x' } }), 404, 'index_not_found_exception', 'no such index [missing-src]');
    expect((await t.request('GET', '/x/_count')).status).toBe(404);
  });
});

describe('reindex as a task', () => {
  it('answers {task} at once and keeps the result for GET /_tasks/<id>', async () => {
    const started = await t.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'src', size: 3 }, dest: { index: 'async1' } });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ task: expect.stringMatching(/^[^:]+:\d+$/) });
    const done = await waitForTask(t, started.body.task);
    expect(done.body.completed).toBe(true);
    expect(done.body.task).toMatchObject({
      node: started.body.task.split(':')[0], id: Number(started.body.task.split(':')[1]), type: 'transport', action: 'indices:data/write/reindex',
      description: 'reindex from [src] to [async1]', cancellable: true, cancelled: false,
      status: { total: N, created: N, batches: 4 },
    });
    expect(done.body.response).toMatchObject({ total: N, created: N, batches: 4, failures: [] });
    // Still there later.
    expect((await t.request('GET', `/_tasks/${started.body.task}`)).body.response.created).toBe(N);
  });

  it('reports a failure of the task itself as error', async () => {
    const started = await t.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'no-such-src' }, dest: { index: 'async2' } });
    const done = await waitForTask(t, started.body.task);
    expect(done.body.error).toMatchObject({ type: 'index_not_found_exception', reason: 'no such index [no-such-src]' });
    expect(done.body.response).toBeUndefined();
  });

  it('shows running progress, lists it in _tasks, and cancels it mid-way', async () => {
    const started = await t.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=4', { source: { index: 'src', size: 2 }, dest: { index: 'cancelled' } });
    const id = started.body.task;
    await new Promise((r) => setTimeout(r, 150));
    const running = await t.request('GET', `/_tasks/${id}`);
    expect(running.body.completed).toBe(false);
    expect(running.body.task.status).toMatchObject({ total: N, requests_per_second: 4 });
    expect(running.body.task.running_time_in_nanos).toBeGreaterThan(0);
    const list = await t.request('GET', '/_tasks?actions=*reindex&detailed=true');
    const [node] = Object.values(list.body.nodes) as any[];
    expect(node.tasks[id]).toMatchObject({ action: 'indices:data/write/reindex', description: 'reindex from [src] to [cancelled]', status: { total: N } });
    expect((await t.request('GET', '/_tasks?actions=*byquery')).body).toEqual({ nodes: {} });
    const cancel = await t.request('POST', `/_tasks/${id}/_cancel`);
    expect(cancel.status).toBe(200);
    expect((Object.values(cancel.body.nodes)[0] as any).tasks[id].cancelled).toBe(true);
    const done = await waitForTask(t, id);
    expect(done.body.response.canceled).toBe('by user request');
    expect(done.body.response.created).toBeLessThan(N);
    expect(done.body.response.created).toBeGreaterThan(0);
    expect(await count('cancelled')).toBe(done.body.response.created);
  });

  it('rethrottles a running reindex', async () => {
    const started = await t.request('POST', '/_reindex?wait_for_completion=false&requests_per_second=1', { source: { index: 'src', size: 2 }, dest: { index: 'rethrottled' } });
    await new Promise((r) => setTimeout(r, 50));
    const res = await t.request('POST', `/_reindex/${started.body.task}/_rethrottle?requests_per_second=-1`);
    expect(res.status).toBe(200);
    expect(Object.keys((Object.values(res.body.nodes)[0] as any).tasks)).toEqual([started.body.task]);
    const done = await waitForTask(t, started.body.task);
    expect(done.body.response).toMatchObject({ created: N, requests_per_second: -1 });
  });

  it('waits for completion on GET /_tasks/<id>?wait_for_completion=true', async () => {
    const started = await t.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'src' }, dest: { index: 'waited' } });
    const res = await t.request('GET', `/_tasks/${started.body.task}?wait_for_completion=true&timeout=10s`);
    expect(res.body).toMatchObject({ completed: true, response: { created: N } });
  });

  it('answers unknown and malformed task ids as ES does', async () => {
    const nodeTask = (await t.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'src' }, dest: { index: 'ids' } })).body.task;
    const node = nodeTask.split(':')[0];
    expectEsError(await t.request('GET', `/_tasks/${node}:999999`), 404, 'resource_not_found_exception', `task [${node}:999999] isn't running and hasn't stored its results`);
    expectEsError(await t.request('GET', '/_tasks/foo'), 400, 'illegal_argument_exception', 'malformed task id foo');
    expectEsError(await t.request('POST', `/_tasks/${node}:999999/_cancel`), 404, 'resource_not_found_exception', `task [${node}:999999] is not found`);
    await waitForTask(t, nodeTask);
  });

  it('keeps finished results across a restart, and never reuses an id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tasks-restart-'));
    try {
      let a = await createTestApp({ dataDir: dir });
      await seed(a, 'rs', 4);
      const id = (await a.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'rs' }, dest: { index: 'rd' } })).body.task;
      await waitForTask(a, id);
      await a.close();
      a = await createTestApp({ dataDir: dir });
      const res = await a.request('GET', `/_tasks/${id}`);
      expect(res.body).toMatchObject({ completed: true, response: { created: 4 } });
      const next = (await a.request('POST', '/_reindex?wait_for_completion=false', { source: { index: 'rs' }, dest: { index: 'rd' } })).body.task;
      expect(Number(next.split(':')[1])).toBeGreaterThan(Number(id.split(':')[1]));
      await waitForTask(a, next);
      await a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('_update_by_query and _delete_by_query', () => {
  it('re-runs a pipeline over the documents in place', async () => {
    await seed(t, 'ubq', 5);
    await t.request('PUT', '/_ingest/pipeline/mark', { processors: [{ set: { field: 'marked', value: true } }] });
    const res = await t.request('POST', '/ubq/_update_by_query?pipeline=mark&refresh=true', { query: { term: { kind: 'even' } } });
    expect(res.body).toMatchObject({ total: 3, updated: 3, created: 0, failures: [] });
    expect((await t.request('POST', '/ubq/_count', { query: { term: { marked: true } } })).body.count).toBe(3);
    expect((await t.request('GET', '/ubq/_doc/d0')).body._version).toBe(2);
  });

  it('updates everything without a body, as a task too', async () => {
    const started = await t.request('POST', '/ubq/_update_by_query?wait_for_completion=false&scroll_size=2');
    const done = await waitForTask(t, started.body.task);
    expect(done.body.task.action).toBe('indices:data/write/update/byquery');
    expect(done.body.response).toMatchObject({ total: 5, updated: 5, batches: 3 });
  });

  it('deletes the matching documents', async () => {
    await seed(t, 'dbq', 6);
    const res = await t.request('POST', '/dbq/_delete_by_query?refresh=true', { query: { term: { kind: 'odd' } } });
    expect(res.body).toMatchObject({ total: 3, deleted: 3, failures: [] });
    expect((await t.request('GET', '/dbq/_count')).body.count).toBe(3);
    expect((await t.request('POST', '/dbq/_delete_by_query', { query: { match_all: {} }, max_docs: 1 })).body).toMatchObject({ total: 1, deleted: 1 });
  });

  it('rejects a delete_by_query without a query and unknown body fields', async () => {
    expectEsError(await t.request('POST', '/dbq/_delete_by_query', {}), 400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
    expectErrorType(await t.request('POST', '/dbq/_update_by_query', { quer: {} }), 400, 'x_content_parse_exception', /\[update_by_query\] unknown field \[quer\]/);
    expectErrorType(await t.request('POST', '/nope/_update_by_query'), 404, 'index_not_found_exception');
  });
});
