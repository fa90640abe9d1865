/**
 * Paging through a whole index with the official Node clients while it changes: `helpers.scrollSearch`,
 * `helpers.scrollDocuments` and a point-in-time `search_after` loop each return every one of
 * 10,000 documents exactly once while other requests index new documents, delete old ones, refresh
 * and force-merge — the contexts read the snapshot they opened on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as Client8 } from 'es8';
import { Client as Client9 } from 'es9';
import { createTestApp, type TestApp } from '../support/test-app.js';

const DOCS = 10_000;
let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ threads: 2 });
  url = await t.listen();
  await t.request('PUT', '/paged', { settings: { number_of_shards: 2 }, mappings: { properties: { n: { type: 'integer' }, body: { type: 'text' } } } });
  for (let start = 0; start < DOCS; start += 2500) {
    const lines: unknown[] = [];
    for (let i = start; i < start + 2500; i++) lines.push({ index: { _id: `d${i}` } }, { n: i, body: `doc ${i % 97}` });
    expect((await t.bulk('/paged/_bulk', lines, '?refresh=true')).body.errors).toBe(false);
  }
}, 120_000);
afterAll(async () => t.close());

/**
 * Once `opened` resolves (the context exists), writes, deletes, refreshes and merges until `done`
 * settles; resolves with how many rounds ran.
 */
async function churn(label: string, opened: Promise<unknown>, done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.catch(() => undefined).finally(() => (finished = true));
  await opened;
  let round = 0;
  while (!finished) {
    const lines: unknown[] = [];
    for (let i = 0; i < 50; i++) lines.push({ index: { _id: `${label}-${round}-${i}` } }, { n: DOCS + round * 50 + i, body: 'new' });
    lines.push({ delete: { _id: `d${(round * 37) % DOCS}` } });
    await t.bulk('/paged/_bulk', lines, '?refresh=true');
    if (round % 3 === 2) await t.request('POST', '/paged/_forcemerge?max_num_segments=1');
    round++;
  }
  return round;
}

/** Restores the deleted originals and removes the churn's documents. */
async function restore(): Promise<void> {
  await t.request('POST', '/paged/_delete_by_query?refresh=true', { query: { range: { n: { gte: DOCS } } } });
  const lines: unknown[] = [];
  for (let i = 0; i < DOCS; i++) lines.push({ create: { _id: `d${i}` } }, { n: i, body: `doc ${i % 97}` });
  await t.bulk('/paged/_bulk', lines, '?refresh=true');
}

function expectEveryDocOnce(ns: number[]): void {
  expect(ns.length).toBe(DOCS);
  expect(new Set(ns).size).toBe(DOCS);
  expect(Math.min(...ns)).toBe(0);
  expect(Math.max(...ns)).toBe(DOCS - 1);
}

for (const [major, Client] of [[8, Client8], [9, Client9]] as const) {
  describe(`@elastic/elasticsearch ${major}.x`, () => {
    it('helpers.scrollSearch returns every document once while the index is written and merged', async () => {
      const es = new (Client as typeof Client8)({ node: url });
      const ns: number[] = [];
      let firstPage!: () => void;
      const opened = new Promise<void>((r) => (firstPage = r));
      const scrolled = (async () => {
        for await (const page of es.helpers.scrollSearch<{ n: number }>({ index: 'paged', size: 500, query: { match_all: {} } })) {
          for (const h of page.body.hits.hits) ns.push(h._source!.n);
          firstPage();
          // Give the writer a turn between pages.
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      try {
        const rounds = await churn(`s${major}`, opened, scrolled);
        await scrolled;
        expect(rounds).toBeGreaterThan(0);
        expectEveryDocOnce(ns);
      } finally {
        await restore();
        await es.close();
      }
    }, 120_000);

    it('parallel sliced scrolls (helpers.scrollSearch with slice) return every document once between them', async () => {
      const es = new (Client as typeof Client8)({ node: url });
      try {
        // The clients type a slice's `id` as a string (their `Id`); ES coerces it, as here.
        const slices = await Promise.all([0, 1, 2, 3].map(async (id) => {
          const ns: number[] = [];
          for await (const page of es.helpers.scrollSearch<{ n: number }>({ index: 'paged', size: 700, slice: { id: String(id), max: 4 }, sort: ['_doc'] })) {
            for (const h of page.body.hits.hits) ns.push(h._source!.n);
          }
          return ns;
        }));
        for (const ns of slices) expect(ns.length).toBeGreaterThan(DOCS / 8);
        expectEveryDocOnce(slices.flat());
      } finally {
        await es.close();
      }
    }, 120_000);

    it('helpers.scrollDocuments returns every _source once while the index changes', async () => {
      const es = new (Client as typeof Client8)({ node: url });
      const ns: number[] = [];
      let firstDoc!: () => void;
      const opened = new Promise<void>((r) => (firstDoc = r));
      const scrolled = (async () => {
        for await (const doc of es.helpers.scrollDocuments<{ n: number }>({ index: 'paged', size: 1000, sort: ['_doc'] })) {
          ns.push(doc.n);
          if (ns.length === 1) firstDoc();
          // Give the writer a turn now and then.
          if (ns.length % 1000 === 0) await new Promise((r) => setTimeout(r, 5));
        }
      })();
      try {
        await churn(`d${major}`, opened, scrolled);
        await scrolled;
        expectEveryDocOnce(ns);
      } finally {
        await restore();
        await es.close();
      }
    }, 120_000);

    it('a point-in-time search_after loop returns every document once while the index changes', async () => {
      const es = new (Client as typeof Client8)({ node: url });
      const pit = await es.openPointInTime({ index: 'paged', keep_alive: '1m' });
      const ns: number[] = [];
      const paged = (async () => {
        let after: any[] | undefined;
        for (;;) {
          const res = await es.search<{ n: number }>({
            size: 1000, pit: { id: pit.id, keep_alive: '1m' }, sort: [{ _score: { order: 'desc' } }], query: { match: { body: 'doc new' } }, ...(after ? { search_after: after } : {}),
          });
          if (res.hits.hits.length === 0) break;
          for (const h of res.hits.hits) ns.push(h._source!.n);
          after = res.hits.hits.at(-1)!.sort;
        }
      })();
      try {
        await churn(`p${major}`, Promise.resolve(), paged);
        await paged;
        expectEveryDocOnce(ns);
        expect((await es.closePointInTime({ id: pit.id })).succeeded).toBe(true);
      } finally {
        await restore();
        await es.close();
      }
    }, 120_000);
  });
}
