/**
 * Sliced scroll and point in time (paginate-search-results.html#slice-scroll): `slice: {id, max}`
 * splits a scroll's or point in time's hits into `max` disjoint parts that together hold every hit
 * once; `field` slices by a numeric field's doc values. Here a document's slice depends on the
 * document alone (cluster/search/search-slice.ts), so slices are the same with 1 shard and with 3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../support/test-app.js';
import { expectEsError } from './es.js';

let t: TestApp;
const DOCS = 60;
const ALL = Array.from({ length: DOCS }, (_, i) => `d${i}`).sort();

beforeAll(async () => {
  t = await createTestApp();
  for (const [index, shards] of [['s1', 1], ['s3', 3]] as const) {
    const res = await t.request('PUT', `/${index}`, {
      settings: { number_of_shards: shards },
      mappings: { properties: { n: { type: 'integer' }, x: { type: 'double' }, k: { type: 'keyword' }, nodv: { type: 'long', doc_values: false }, body: { type: 'text' } } },
    });
    expect(res.status).toBe(200);
    const lines: unknown[] = [];
    // d59 has no `n` (slice 0 when slicing on it); two bulks make two segments per shard.
    for (let i = 0; i < DOCS; i++) lines.push({ index: { _id: `d${i}` } }, { ...(i === DOCS - 1 ? {} : { n: i * 7 - 40 }), x: i / 3, k: `k${i}`, body: 'some words' });
    expect((await t.bulk(`/${index}/_bulk`, lines.slice(0, 60), '?refresh=true')).body.errors).toBe(false);
    expect((await t.bulk(`/${index}/_bulk`, lines.slice(60), '?refresh=true')).body.errors).toBe(false);
  }
});
afterAll(async () => t.close());

/** Every hit id of one sliced scroll, page by page (3 a page). */
async function scrollSlice(index: string, slice: Record<string, unknown>): Promise<string[]> {
  let res = await t.request('POST', `/${index}/_search?scroll=1m`, { size: 3, slice, _source: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const scrollId = res.body._scroll_id;
  const out: string[] = [];
  while (res.body.hits.hits.length > 0) {
    out.push(...res.body.hits.hits.map((h: any) => h._id));
    res = await t.request('POST', '/_search/scroll', { scroll: '1m', scroll_id: scrollId });
    expect(res.status).toBe(200);
  }
  await t.request('DELETE', '/_search/scroll', { scroll_id: scrollId });
  return out;
}

/** Every hit id of one slice of a point in time, paged with search_after. */
async function pitSlice(pit: string, slice: Record<string, unknown>): Promise<string[]> {
  const out: string[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const res = await t.request('POST', '/_search', { size: 4, slice, pit: { id: pit }, sort: ['_shard_doc'], ...(after ? { search_after: after } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const hits = res.body.hits.hits;
    if (hits.length === 0) return out;
    out.push(...hits.map((h: any) => h._id));
    after = hits.at(-1).sort;
  }
}

/** The slices partition ALL: disjoint, every document exactly once. */
function expectPartition(slices: string[][]): void {
  const union = slices.flat();
  expect(union.length).toBe(DOCS);
  expect([...union].sort()).toEqual(ALL);
  expect(new Set(union).size).toBe(DOCS);
  // A fair hash gives no slice more than its share many times over.
  for (const s of slices) expect(s.length).toBeLessThan(DOCS);
}

describe('slice: scroll', () => {
  for (const max of [2, 3, 5]) {
    it(`${max} slices of a scroll hold every document once, the same with 1 shard and 3`, async () => {
      const bySlice: Record<string, string[][]> = {};
      for (const index of ['s1', 's3']) {
        bySlice[index] = [];
        for (let id = 0; id < max; id++) bySlice[index].push(await scrollSlice(index, { id, max }));
        expectPartition(bySlice[index]);
      }
      expect(bySlice.s3.map((s) => [...s].sort())).toEqual(bySlice.s1.map((s) => [...s].sort()));
    });
  }

  it('slices on _id explicitly as by default, and on a numeric field by its doc values', async () => {
    for (const index of ['s1', 's3']) {
      const byDefault = [await scrollSlice(index, { id: 0, max: 4 }), await scrollSlice(index, { id: 1, max: 4 })];
      expect([await scrollSlice(index, { field: '_id', id: 0, max: 4 }), await scrollSlice(index, { field: '_id', id: 1, max: 4 })]).toEqual(byDefault);
    }
    for (const field of ['n', 'x']) {
      const one: string[][] = [];
      const three: string[][] = [];
      for (let id = 0; id < 3; id++) {
        one.push(await scrollSlice('s1', { field, id, max: 3 }));
        three.push(await scrollSlice('s3', { field, id, max: 3 }));
      }
      expectPartition(one);
      expectPartition(three);
      expect(three.map((s) => [...s].sort())).toEqual(one.map((s) => [...s].sort()));
    }
    // A document without the field belongs to slice 0 (ES DocValuesSliceQuery: contains(0)).
    expect(await scrollSlice('s1', { field: 'n', id: 0, max: 3 })).toContain('d59');
  });

  it('aggregates and highlights within the slice, as ES filters the shard query', async () => {
    const res = await t.request('POST', '/s3/_search?scroll=1m', {
      size: 100, slice: { id: 0, max: 2 }, query: { match: { body: 'words' } }, aggs: { c: { value_count: { field: 'n' } } }, highlight: { fields: { body: {} } },
    });
    expect(res.status).toBe(200);
    const inSlice = res.body.hits.hits.map((h: any) => h._id);
    expect(inSlice.sort()).toEqual((await scrollSlice('s3', { id: 0, max: 2 })).sort());
    expect(res.body.aggregations.c.value).toBe(inSlice.filter((id: string) => id !== 'd59').length);
    expect(res.body.hits.hits[0].highlight).toEqual({ body: ['some <em>words</em>'] });
    await t.request('DELETE', '/_search/scroll', { scroll_id: res.body._scroll_id });
  });

  it('keeps the query, its scores and the total within the slice', async () => {
    const slice = await t.request('POST', '/s1/_search?scroll=1m', { size: 100, slice: { id: 1, max: 2 }, query: { range: { n: { gte: 0 } } } });
    const all = await scrollSlice('s1', { id: 1, max: 2 });
    const inRange = new Set(Array.from({ length: DOCS - 1 }, (_, i) => i).filter((i) => i * 7 - 40 >= 0).map((i) => `d${i}`));
    const expected = all.filter((id) => inRange.has(id)).sort();
    expect(slice.body.hits.hits.map((h: any) => h._id).sort()).toEqual(expected);
    expect(slice.body.hits.total).toEqual({ value: expected.length, relation: 'eq' });
    expect(slice.body.hits.hits.every((h: any) => h._score === 1)).toBe(true);
    await t.request('DELETE', '/_search/scroll', { scroll_id: slice.body._scroll_id });
  });
});

describe('slice: point in time', () => {
  it('slices a point in time by write order by default, and by a numeric field, the same with 1 shard and 3', async () => {
    const pits = { s1: (await t.request('POST', '/s1/_pit?keep_alive=1m')).body.id, s3: (await t.request('POST', '/s3/_pit?keep_alive=1m')).body.id };
    for (const extra of [{}, { field: 'n' }]) {
      const bySlice: Record<string, string[][]> = {};
      for (const index of ['s1', 's3'] as const) {
        bySlice[index] = [];
        for (let id = 0; id < 3; id++) bySlice[index].push(await pitSlice(pits[index], { ...extra, id, max: 3 }));
        expectPartition(bySlice[index]);
      }
      expect(bySlice.s3.map((s) => [...s].sort())).toEqual(bySlice.s1.map((s) => [...s].sort()));
    }
    // Write order, round robin: d0, d3, d6… in slice 0.
    expect((await pitSlice(pits.s3, { id: 0, max: 3 })).sort()).toEqual(ALL.filter((id) => Number(id.slice(1)) % 3 === 0));
    // ES checks max_slices_per_scroll for scrolls only.
    expect((await t.request('POST', '/_search', { size: 1, slice: { id: 5, max: 2147483647 }, pit: { id: pits.s1 } })).status).toBe(200);
    const onId = await t.request('POST', '/_search', { slice: { field: '_id', id: 0, max: 2 }, pit: { id: pits.s1 } });
    expect(onId.status).toBe(400);
    expect(onId.body.error).toMatchObject({ type: 'search_phase_execution_exception', root_cause: [{ type: 'illegal_argument_exception', reason: 'cannot slice on [_id] when using [point-in-time]' }] });
    for (const pit of Object.values(pits)) await t.request('DELETE', '/_pit', { id: pit });
  });
});

describe('slice: errors and hostile input', () => {
  it('only with a scroll or a point in time', async () => {
    expectEsError(await t.request('POST', '/s1/_search', { slice: { id: 0, max: 2 } }), 400, 'action_request_validation_exception',
      'Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');
    const ndjson = [{ index: 's1' }, { slice: { id: 0, max: 2 } }].map((l) => JSON.stringify(l)).join('\n') + '\n';
    const multi = await t.request('POST', '/_msearch', ndjson, { 'content-type': 'application/x-ndjson' });
    // ES's MultiSearchRequest.validate validates every item: the whole request fails.
    expectEsError(multi, 400, 'action_request_validation_exception', 'Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');
    // A _rank_eval request is a search too: its failure is listed, as the multi search underneath reports it.
    const rankEval = await t.request('POST', '/s1/_rank_eval', { requests: [{ id: 'q', request: { slice: { id: 0, max: 2 } }, ratings: [] }], metric: { precision: {} } });
    expect(rankEval.status).toBe(200);
    expect(rankEval.body.failures.q.error.type).toBe('action_request_validation_exception');
    expect(rankEval.body.failures.q.error.reason).toBe('Validation Failed: 1: [slice] can only be used with [scroll] or [point-in-time] requests;');
  });

  it('a scroll\'s max is at most index.max_slices_per_scroll (1024 by default)', async () => {
    const expectTooMany = (res: TestResponse, max: number, limit: number) => {
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        type: 'search_phase_execution_exception', reason: 'all shards failed',
        root_cause: [{ type: 'illegal_argument_exception', reason: `The number of slices [${max}] is too large. It must be less than [${limit}]. This limit can be set by changing the [index.max_slices_per_scroll] index level setting.` }],
      });
    };
    expectTooMany(await t.request('POST', '/s1/_search?scroll=1m', { slice: { id: 0, max: 1025 } }), 1025, 1024);
    expectTooMany(await t.request('POST', '/s1/_search?scroll=1m', { slice: { id: 0, max: 2147483647 } }), 2147483647, 1024);
    expect((await t.request('PUT', '/s3/_settings', { index: { max_slices_per_scroll: 4 } })).status).toBe(200);
    expectTooMany(await t.request('POST', '/s3/_search?scroll=1m', { slice: { id: 0, max: 5 } }), 5, 4);
    expect(await scrollSlice('s3', { id: 3, max: 4 })).toEqual(expect.any(Array));
    expect((await t.request('PUT', '/s3/_settings', { index: { max_slices_per_scroll: null } })).status).toBe(200);
    expect(await t.request('PUT', '/s3/_settings', { index: { max_slices_per_scroll: 0 } })).toMatchObject({ status: 400 });
  });

  it('a field must be mapped, numeric and have doc values', async () => {
    for (const [field, reason] of [['nope', 'field nope not found'], ['k', 'cannot load numeric doc values on k'], ['body', 'cannot load numeric doc values on body'], ['nodv', 'cannot load numeric doc values on nodv']]) {
      const res = await t.request('POST', '/s1/_search?scroll=1m', { slice: { field, id: 0, max: 2 } });
      expect(res.status, field).toBe(400);
      expect(res.body.error, field).toMatchObject({ type: 'search_phase_execution_exception', root_cause: [{ type: 'illegal_argument_exception', reason }] });
    }
  });

  it('refuses bad ids, maxes and types as SliceBuilder\'s parser does', async () => {
    const cases: Array<[unknown, string, string, string?]> = [
      [{ id: -1, max: 2 }, 'x_content_parse_exception', '[slice] failed to parse field [id]', 'id must be greater than or equal to 0'],
      [{ id: 0, max: 1 }, 'x_content_parse_exception', '[slice] failed to parse field [max]', 'max must be greater than 1'],
      [{ id: 0, max: -5 }, 'x_content_parse_exception', '[slice] failed to parse field [max]', 'max must be greater than 1'],
      [{ id: 2, max: 2 }, 'x_content_parse_exception', '[slice] failed to parse field [max]', 'max must be greater than id'],
      [{ max: 2, id: 2 }, 'x_content_parse_exception', '[slice] failed to parse field [id]', 'max must be greater than id'],
      [{ id: 0 }, 'x_content_parse_exception', '[slice] failed to parse field [max]', 'max must be greater than 1'],
      [{ max: 3 }, 'x_content_parse_exception', '[slice] failed to parse field [id]', 'id must be greater than or equal to 0'],
      [{ id: 1e12, max: 2 }, 'x_content_parse_exception', '[slice] failed to parse field [id]'],
      [{ id: 0, max: 1e300 }, 'x_content_parse_exception', '[slice] failed to parse field [max]'],
      [{ id: 'x', max: 2 }, 'x_content_parse_exception', '[slice] failed to parse field [id]'],
      [{ id: true, max: 2 }, 'x_content_parse_exception', "[slice] id doesn't support values of type: VALUE_BOOLEAN"],
      [{ id: 0, max: null }, 'x_content_parse_exception', "[slice] max doesn't support values of type: VALUE_NULL"],
      [{ id: 0, max: [2] }, 'x_content_parse_exception', "[slice] max doesn't support values of type: START_ARRAY"],
      [{ id: 0, max: 2, field: 5 }, 'x_content_parse_exception', "[slice] field doesn't support values of type: VALUE_NUMBER"],
      [{ id: 0, max: 2, size: 3 }, 'x_content_parse_exception', '[slice] unknown field [size]'],
      [[{ id: 0, max: 2 }], 'parsing_exception', 'Unknown key for a START_ARRAY in [slice].'],
      [7, 'parsing_exception', 'Unknown key for a VALUE_NUMBER in [slice].'],
    ];
    for (const [slice, type, reason, cause] of cases) {
      const res = await t.request('POST', '/s1/_search?scroll=1m', { slice });
      expect(res.status, JSON.stringify(slice)).toBe(400);
      expect(res.body.error.type, JSON.stringify(slice)).toBe(type);
      expect(res.body.error.reason, JSON.stringify(slice)).toContain(reason);
      if (cause) expect(res.body.error.caused_by.reason, JSON.stringify(slice)).toBe(cause);
    }
    // Numeric strings are coerced, as ES's declareInt does.
    expect((await scrollSlice('s1', { id: '1', max: '2' })).sort()).toEqual((await scrollSlice('s1', { id: 1, max: 2 })).sort());
  });
});
