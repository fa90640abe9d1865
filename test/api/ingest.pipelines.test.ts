/**
 * Ingest pipeline APIs (es-api.md §4.1): PUT/GET/DELETE with ES validation errors, `_simulate`
 * (stored and inline, verbose), and pipelines on the write path (`?pipeline=`, bulk item
 * `pipeline`, `index.default_pipeline`, `index.final_pipeline`, `_none`, drop → noop).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectEsError } from './es.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const SET_PIPE = { description: 'adds a tag', processors: [{ set: { field: 'tag', value: 'seen' } }, { lowercase: { field: 'title' } }] };

describe('PUT / GET / DELETE /_ingest/pipeline', () => {
  it('stores a pipeline and returns it as it was put', async () => {
    expect((await t.request('PUT', '/_ingest/pipeline/p1', SET_PIPE)).body).toEqual({ acknowledged: true });
    const res = await t.request('GET', '/_ingest/pipeline/p1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ p1: SET_PIPE });
    expect((await t.request('GET', '/_ingest/pipeline')).body.p1).toEqual(SET_PIPE);
    expect(Object.keys((await t.request('GET', '/_ingest/pipeline/p*')).body)).toContain('p1');
  });

  it('answers a missing pipeline with 404 and an empty body', async () => {
    const res = await t.request('GET', '/_ingest/pipeline/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({});
  });

  it('refuses an unknown processor type', async () => {
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ frobnicate: { field: 'x' } }] }), 400, 'parse_exception',
      'No processor type exists with name [frobnicate]', { processor_type: 'frobnicate' });
  });

  it('refuses a processor without a required property, naming it', async () => {
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { value: 1, tag: 't1' } }] }), 400, 'parse_exception',
      '[field] required property is missing', { processor_type: 'set', processor_tag: 't1', property_name: 'field' });
  });

  it('refuses wrong types, unknown options, and a missing processors list', async () => {
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { field: 3, value: 1 } }] }), 400, 'parse_exception',
      "[field] property isn't a string, but of type [java.lang.Integer]", { processor_type: 'set', property_name: 'field' });
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { field: 'a', value: 1, bogus: true } }] }), 400, 'parse_exception',
      "processor [set] doesn't support one or more provided configuration parameters [bogus]", { processor_type: 'set' });
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { description: 'x' }), 400, 'parse_exception',
      '[processors] required property is missing', { property_name: 'processors' });
    expectEsError(await t.request('PUT', '/_ingest/pipeline/bad', { processors: [], extra: 1 }), 400, 'parse_exception',
      "pipeline [bad] doesn't support one or more provided configuration parameters [extra]");
  });

  it('rejects scripted if conditions clearly', async () => {
    const res = await t.request('PUT', '/_ingest/pipeline/bad', { processors: [{ set: { field: 'a', value: 1, if: "ctx.x == 'y'" } }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'parse_exception', processor_type: 'set', property_name: 'if' });
    expect(res.body.error.reason).toMatch(/^\[if\] scripted conditions are not supported/);
  });

  it('rejects malformed JSON and a missing body', async () => {
    expect((await t.request('PUT', '/_ingest/pipeline/bad', '{"processors": [')).body.error.type).toBe('x_content_parse_exception');
    expect((await t.request('PUT', '/_ingest/pipeline/bad')).status).toBe(400);
  });

  it('deletes, and reports a missing pipeline as ES does', async () => {
    await t.request('PUT', '/_ingest/pipeline/gone', SET_PIPE);
    expect((await t.request('DELETE', '/_ingest/pipeline/gone')).body).toEqual({ acknowledged: true });
    expectEsError(await t.request('DELETE', '/_ingest/pipeline/gone'), 404, 'resource_not_found_exception', 'pipeline [gone] is missing');
  });

  it('keeps pipelines across a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'ingest-restart-'));
    try {
      let a = await createTestApp({ dataDir: dir });
      await a.request('PUT', '/_ingest/pipeline/durable', SET_PIPE);
      await a.close();
      a = await createTestApp({ dataDir: dir });
      expect((await a.request('GET', '/_ingest/pipeline/durable')).body).toEqual({ durable: SET_PIPE });
      await a.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('_simulate', () => {
  it('runs a stored pipeline over the request documents', async () => {
    await t.request('PUT', '/_ingest/pipeline/p1', SET_PIPE);
    const res = await t.request('POST', '/_ingest/pipeline/p1/_simulate', { docs: [{ _source: { title: 'Hello' } }, { _index: 'i', _id: '7', _source: {} }] });
    expect(res.status).toBe(200);
    expect(res.body.docs[0].doc).toMatchObject({ _index: '_index', _id: '_id', _version: '-3', _source: { title: 'hello', tag: 'seen' } });
    expect(res.body.docs[0].doc._ingest.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(res.body.docs[1]).toEqual({
      error: {
        root_cause: [{ type: 'illegal_argument_exception', reason: 'field [title] not present as part of path [title]' }],
        type: 'illegal_argument_exception', reason: 'field [title] not present as part of path [title]',
      },
    });
  });

  it('runs an inline pipeline, verbosely per processor', async () => {
    const res = await t.request('POST', '/_ingest/pipeline/_simulate?verbose=true', {
      pipeline: { processors: [{ set: { field: 'a', value: '{{b}}!', tag: 's' } }, { uppercase: { field: 'missing', ignore_failure: true } }] },
      docs: [{ _source: { b: 'x' } }],
    });
    expect(res.status).toBe(200);
    const [first, second] = res.body.docs[0].processor_results;
    expect(first).toMatchObject({ processor_type: 'set', status: 'success', tag: 's', doc: { _source: { a: 'x!', b: 'x' } } });
    expect(second).toMatchObject({ processor_type: 'uppercase', status: 'error_ignored' });
  });

  it('requires docs and, inline, a pipeline', async () => {
    expectEsError(await t.request('POST', '/_ingest/pipeline/_simulate', { docs: [] }), 400, 'parse_exception', '[pipeline] required property is missing', { property_name: 'pipeline' });
    expectEsError(await t.request('POST', '/_ingest/pipeline/p1/_simulate', {}), 400, 'parse_exception', '[docs] required property is missing', { property_name: 'docs' });
    expectEsError(await t.request('POST', '/_ingest/pipeline/nope/_simulate', { docs: [] }), 400, 'illegal_argument_exception', 'pipeline with id [nope] does not exist');
  });
});

describe('pipelines on writes', () => {
  it('applies ?pipeline= on index requests', async () => {
    await t.request('PUT', '/_ingest/pipeline/p1', SET_PIPE);
    expect((await t.request('PUT', '/w1/_doc/1?pipeline=p1', { title: 'MiXed' })).status).toBe(201);
    expect((await t.request('GET', '/w1/_doc/1')).body._source).toEqual({ title: 'mixed', tag: 'seen' });
  });

  it('fails an index request through a missing pipeline with ES error', async () => {
    expectEsError(await t.request('PUT', '/w1/_doc/2?pipeline=nope', { title: 'x' }), 400, 'illegal_argument_exception', 'pipeline with id [nope] does not exist');
    expect((await t.request('GET', '/w1/_doc/2')).status).toBe(404);
  });

  it('applies pipelines per bulk item and reports failures per item, nothing else lost', async () => {
    const res = await t.bulk('/_bulk', [
      { index: { _index: 'w2', _id: 'a', pipeline: 'p1' } }, { title: 'ONE' },
      { index: { _index: 'w2', _id: 'b', pipeline: 'p1' } }, { other: 1 },
      { index: { _index: 'w2', _id: 'c' } }, { title: 'Plain' },
    ], '?pipeline=p1');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBe(true);
    expect(typeof res.body.ingest_took).toBe('number');
    expect(res.body.items[0].index.status).toBe(201);
    expect(res.body.items[1].index).toMatchObject({ _id: 'b', status: 400, error: { type: 'illegal_argument_exception', reason: 'field [title] not present as part of path [title]' } });
    expect(res.body.items[2].index.status).toBe(201);
    expect((await t.request('GET', '/w2/_doc/a')).body._source).toEqual({ title: 'one', tag: 'seen' });
    expect((await t.request('GET', '/w2/_doc/c')).body._source).toEqual({ title: 'plain', tag: 'seen' });
    expect((await t.request('GET', '/w2/_doc/b')).status).toBe(404);
  });

  it('uses index.default_pipeline unless pipeline=_none, and always index.final_pipeline', async () => {
    await t.request('PUT', '/_ingest/pipeline/final', { processors: [{ set: { field: 'final', value: true } }] });
    const created = await t.request('PUT', '/w3', { settings: { 'index.default_pipeline': 'p1', 'index.final_pipeline': 'final' } });
    expect(created.status).toBe(200);
    await t.request('PUT', '/w3/_doc/1', { title: 'A' });
    expect((await t.request('GET', '/w3/_doc/1')).body._source).toEqual({ title: 'a', tag: 'seen', final: true });
    await t.request('PUT', '/w3/_doc/2?pipeline=_none', { title: 'B' });
    expect((await t.request('GET', '/w3/_doc/2')).body._source).toEqual({ title: 'B', final: true });
    expect((await t.request('GET', '/w3/_settings')).body.w3.settings.index.default_pipeline).toBe('p1');
  });

  it('reports a dropped document as a noop and writes nothing', async () => {
    await t.request('PUT', '/_ingest/pipeline/dropper', { processors: [{ drop: {} }] });
    const one = await t.request('PUT', '/w4/_doc/1?pipeline=dropper', { a: 1 });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ _id: '1', result: 'noop', _version: -3 });
    const bulk = await t.bulk('/w4/_bulk?pipeline=dropper', [{ index: { _id: '2' } }, { a: 2 }]);
    expect(bulk.body.items[0].index).toMatchObject({ _id: '2', result: 'noop', status: 200 });
    expect((await t.request('GET', '/w4/_doc/2')).status).toBe(404);
  });

  it('runs pipeline and processor on_failure handlers with the failure metadata', async () => {
    await t.request('PUT', '/_ingest/pipeline/handled', {
      processors: [
        { rename: { field: 'nope', target_field: 'x', tag: 'r1', on_failure: [{ set: { field: 'why', value: '{{_ingest.on_failure_message}} ({{_ingest.on_failure_processor_type}}:{{_ingest.on_failure_processor_tag}})' } }] } },
        { fail: { message: 'stop {{_id}}' } },
        { set: { field: 'never', value: 1 } },
      ],
      on_failure: [{ set: { field: 'pipeline_error', value: '{{_ingest.on_failure_message}} in {{_ingest.on_failure_pipeline}}' } }],
    });
    await t.request('PUT', '/w5/_doc/9?pipeline=handled', { a: 1 });
    expect((await t.request('GET', '/w5/_doc/9')).body._source).toEqual({ a: 1, why: 'field [nope] doesn\'t exist (rename:r1)', pipeline_error: 'stop 9 in handled' });
  });

  it('answers 500 fail_processor_exception for a fail processor without handlers', async () => {
    await t.request('PUT', '/_ingest/pipeline/failing', { processors: [{ fail: { message: 'no {{a}}' } }] });
    expectEsError(await t.request('PUT', '/w6/_doc/1?pipeline=failing', { a: 'way' }), 500, 'fail_processor_exception', 'no way');
  });
});
