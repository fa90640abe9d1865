/**
 * A refresh whose segment build fails (its worker died) puts the captured writes back in front of
 * the newer ones. Writes that replaced or deleted a captured document meanwhile must still win:
 * the next refresh builds exactly one copy of each live document and none of a deleted one.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InternalError } from '../../src/errors/index.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = null;
});

describe('a refresh that fails while documents change', () => {
  it('keeps only the newest copy of each document once a later refresh succeeds', async () => {
    t = await createTestApp();
    await t.request('PUT', '/r', { settings: { refresh_interval: '-1' } });
    const lines = Array.from({ length: 20 }, (_, i) => [{ index: { _id: `d${i}` } }, { v: 1 }]).flat();
    expect((await t.bulk('/r/_bulk', lines)).body.errors).toBe(false);

    // The build starts, then (while it runs) d0–d9 are rewritten and d10 deleted; then it fails.
    const pool = t.app.pool;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    vi.spyOn(pool, 'build').mockImplementationOnce(async () => {
      await gate;
      throw new InternalError('worker failed while running a build task: worker exited with code: 1');
    });
    const failing = t.request('POST', '/r/_refresh');
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < 10; i++) expect((await t.request('PUT', `/r/_doc/d${i}`, { v: 2 })).status).toBe(200);
    expect((await t.request('DELETE', '/r/_doc/d10')).status).toBe(200);
    release();
    expect((await failing).status).toBe(500);

    expect((await t.request('POST', '/r/_refresh')).status).toBe(200);
    const res = await t.request('POST', '/r/_search', { size: 100, sort: ['_doc'] });
    const hits = res.body.hits.hits as Array<{ _id: string; _source: { v: number } }>;
    expect(res.body.hits.total.value).toBe(19);
    expect(new Set(hits.map((h) => h._id)).size).toBe(19);
    expect(hits.find((h) => h._id === 'd10')).toBeUndefined();
    for (const h of hits) expect(h._source.v).toBe(Number(h._id.slice(1)) < 10 ? 2 : 1);
  });
});
