/**
 * One scenario, run once per major version of the official Node client
 * (`client-v8.test.ts`, `client-v9.test.ts`): the client must work against the server unchanged,
 * with its default options (product check, vendor media types, retries) and with
 * `compression: true`. The v8 client's types describe the calls used here; v9 has the same API for
 * them, so each test file passes its own `Client` and `errors` in.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client as Es8Client, ClientOptions } from 'es8';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { compareStrings, NOUNS, PRODUCT_MAPPINGS, products, type Product } from './fixtures.js';

export type EsClient = Es8Client;

type ErrorClass = abstract new (...args: never[]) => Error;

export interface ClientFlavour {
  /** The client's major version: it sends `compatible-with=<major>`. */
  readonly major: 8 | 9;
  /**
   * The package's `Client`. Typed loosely because v9's class is not assignable to v8's (the
   * transports' private members differ); the scenario calls it through v8's types.
   */
  readonly Client: new (options: Pick<ClientOptions, 'node' | 'compression'>) => unknown;
  readonly errors: {
    readonly ResponseError: ErrorClass;
    readonly ProductNotSupportedError: ErrorClass;
    readonly ConnectionError: ErrorClass;
  };
}

/** What the transport put on the wire for one attempt (from its `request` diagnostic event). */
interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly querystring: string;
  readonly headers: Record<string, string>;
}

/** The parts of a transport ResponseError the tests read. */
interface ResponseErrorLike extends Error {
  readonly statusCode?: number;
  readonly body?: any;
  /** The transport's DiagnosticResult; the retry count sits one level further down. */
  readonly meta: {
    readonly statusCode?: number;
    readonly body?: any;
    readonly headers?: Record<string, string>;
    readonly meta: { readonly attempts: number };
  };
}

const DOC_COUNT = 2000;

function recordRequests(client: EsClient): SentRequest[] {
  const sent: SentRequest[] = [];
  client.diagnostic.on('request', (_err, result) => {
    const params = result?.meta.request.params;
    if (!params) return;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(params.headers ?? {})) headers[k.toLowerCase()] = String(v);
    sent.push({ method: params.method, path: params.path, querystring: String(params.querystring ?? ''), headers });
  });
  return sent;
}

/** Runs `call`, which must reject, and returns the rejection. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to be rejected, but it resolved');
}

export function describeClientScenarios(flavour: ClientFlavour): void {
  const { major, errors } = flavour;
  const newClient = (options: Pick<ClientOptions, 'node' | 'compression'>): EsClient => new flavour.Client(options) as EsClient;
  const vendorJson = `application/vnd.elasticsearch+json;compatible-with=${major}`;

  describe(`the official client v${major} against a running server`, () => {
    let t: TestApp;
    let url: string;
    let client: EsClient;
    let sent: SentRequest[];
    const docs = products(DOC_COUNT);
    const bySku = new Map(docs.map((d) => [d.sku, d]));
    let bulkStats: Awaited<ReturnType<EsClient['helpers']['bulk']>>;
    let bulkDropped: unknown[];
    let bulkRequestCount: number;

    /** Asserts the ResponseError contract: status, error type, no retries, one request on the wire. */
    async function expectResponseError(call: () => Promise<unknown>, status: number, type: string): Promise<ResponseErrorLike> {
      const before = sent.length;
      const err = await rejection(call);
      expect(err).toBeInstanceOf(errors.ResponseError);
      expect(err).not.toBeInstanceOf(errors.ConnectionError);
      const e = err as ResponseErrorLike;
      expect(e.meta.statusCode).toBe(status);
      expect(e.statusCode).toBe(status);
      expect(e.meta.meta.attempts).toBe(0);
      expect(sent.length - before).toBe(1);
      expect(e.meta.body.status).toBe(status);
      expect(e.meta.body.error.type).toBe(type);
      expect(e.meta.body.error.root_cause[0].type).toBe(type);
      expect(e.meta.headers?.['content-type']).toBe(vendorJson);
      return e;
    }

    beforeAll(async () => {
      t = await createTestApp();
      url = await t.listen();
      client = newClient({ node: url });
      sent = recordRequests(client);

      await client.indices.create({
        index: 'products',
        mappings: PRODUCT_MAPPINGS as never,
        settings: { number_of_shards: 2, number_of_replicas: 0 },
      });
      bulkDropped = [];
      const before = sent.length;
      bulkStats = await client.helpers.bulk<Product>({
        datasource: docs,
        onDocument: (doc) => ({ index: { _index: 'products', _id: doc.sku } }),
        onDrop: (dropped) => {
          bulkDropped.push(dropped);
        },
        // Small batches, so the helper sends several concurrent _bulk requests.
        flushBytes: 40_000,
        refreshOnCompletion: true,
      });
      bulkRequestCount = sent.slice(before).filter((r) => r.path.endsWith('/_bulk')).length;
    });

    afterAll(async () => {
      await client?.close();
      await t?.close();
    });

    describe('connecting', () => {
      it('info returns the node name, the cluster name, an 8.x version and the tagline', async () => {
        const res = await client.info({}, { meta: true });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-elastic-product']).toBe('Elasticsearch');
        expect(res.body.tagline).toBe('You Know, for Search');
        expect(typeof res.body.name).toBe('string');
        expect(typeof res.body.cluster_name).toBe('string');
        expect(res.body.cluster_uuid).toMatch(/^\S+$/);
        expect(res.body.version.number).toMatch(/^8\.\d+\.\d+$/);
        expect(res.body.version.lucene_version).toMatch(/^\d+\.\d+\.\d+$/);
      });

      it('ping answers true', async () => {
        expect(await client.ping()).toBe(true);
        const last = sent[sent.length - 1];
        expect(last.method).toBe('HEAD');
        expect(last.path).toBe('/');
      });

      it('the same client refuses a server without the product header, so the check above is live', async () => {
        const impostor: Server = createServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ tagline: 'You Know, for Search', version: { number: '8.15.0' } }));
        });
        await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
        const other = newClient({ node: `http://127.0.0.1:${(impostor.address() as AddressInfo).port}` });
        try {
          const err = await rejection(() => other.info());
          expect(err).toBeInstanceOf(errors.ProductNotSupportedError);
        } finally {
          await other.close();
          await new Promise<void>((resolve) => impostor.close(() => resolve()));
        }
      });

      it(`the client sends compatible-with=${major} and the response echoes the vendor media type`, async () => {
        const res = await client.info({}, { meta: true });
        expect(res.headers['content-type']).toBe(vendorJson);
        const last = sent[sent.length - 1];
        expect(last.headers.accept).toContain(`application/vnd.elasticsearch+json; compatible-with=${major}`);
        // A request with a body carries the vendor Content-Type too, and gets the same answer.
        const search = await client.search({ index: 'products', size: 0 }, { meta: true });
        expect(sent[sent.length - 1].headers['content-type']).toBe(`application/vnd.elasticsearch+json; compatible-with=${major}`);
        expect(search.headers['content-type']).toBe(vendorJson);
      });

      it('the NDJSON bulk request is answered with the JSON vendor media type', async () => {
        const res = await client.bulk({ operations: [{ index: { _index: 'scratch', _id: 'a' } }, { n: 1 }] }, { meta: true });
        expect(sent[sent.length - 1].headers['content-type']).toBe(`application/vnd.elasticsearch+x-ndjson; compatible-with=${major}`);
        expect(res.headers['content-type']).toBe(vendorJson);
        expect(res.body.errors).toBe(false);
        expect(res.body.items[0].index?.result).toBe('created');
      });
    });

    describe('indices', () => {
      const mappings = {
        properties: {
          name: { type: 'text' },
          code: { type: 'keyword' },
          year: { type: 'integer' },
          published: { type: 'date' },
        },
      } as const;

      it('creating an index with mappings and settings is acknowledged', async () => {
        const res = await client.indices.create({
          index: 'catalog',
          mappings: mappings as never,
          settings: { number_of_shards: 3, number_of_replicas: 0 },
        });
        expect(res).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'catalog' });
        const settings = await client.indices.getSettings({ index: 'catalog' });
        // ES renders every setting value as a string.
        expect(settings.catalog.settings?.index?.number_of_shards).toBe('3');
        expect(settings.catalog.settings?.index?.number_of_replicas).toBe('0');
      });

      it('indices.exists is true for an existing index and false (not an error) for a missing one', async () => {
        expect(await client.indices.exists({ index: 'products' })).toBe(true);
        expect(await client.indices.exists({ index: 'no-such-index' })).toBe(false);
        const last = sent[sent.length - 1];
        expect(last.method).toBe('HEAD');
      });

      it('getMapping returns exactly the mappings the index was created with', async () => {
        const res = await client.indices.getMapping({ index: 'products' });
        expect(Object.keys(res)).toEqual(['products']);
        expect(res.products.mappings).toEqual(PRODUCT_MAPPINGS);
      });

      it('creating an existing index is a ResponseError 400 resource_already_exists_exception', async () => {
        const e = await expectResponseError(
          () => client.indices.create({ index: 'products', mappings: PRODUCT_MAPPINGS as never }),
          400,
          'resource_already_exists_exception',
        );
        expect(e.meta.body.error.reason).toMatch(/^index \[products\/[^\]]+\] already exists$/);
        expect(e.meta.body.error.index).toBe('products');
      });

      it('refresh reports its shards and delete removes the index', async () => {
        await client.index({ index: 'short-lived', id: '1', document: { a: 1 } });
        const refreshed = await client.indices.refresh({ index: 'short-lived' });
        expect(refreshed._shards?.failed).toBe(0);
        expect(refreshed._shards?.successful).toBeGreaterThan(0);
        expect(await client.count({ index: 'short-lived' })).toMatchObject({ count: 1 });
        expect(await client.indices.delete({ index: 'short-lived' })).toEqual({ acknowledged: true });
        expect(await client.indices.exists({ index: 'short-lived' })).toBe(false);
      });

      it('cluster.putSettings and getSettings change a dynamic setting and reset it', async () => {
        const put = await client.cluster.putSettings({ persistent: { 'search.max_open_scroll_context': 100 } });
        expect(put).toMatchObject({ acknowledged: true, persistent: { search: { max_open_scroll_context: '100' } } });
        expect(await client.cluster.getSettings({ flat_settings: true })).toMatchObject({ persistent: { 'search.max_open_scroll_context': '100' } });
        await client.cluster.putSettings({ persistent: { 'search.max_open_scroll_context': null } });
        expect((await client.cluster.getSettings()).persistent).toEqual({});
      });

      it('indices.segments and cat.segments list the segments a refresh made', async () => {
        await client.index({ index: 'segmented', id: '1', document: { a: 1 }, refresh: true });
        const res = await client.indices.segments({ index: 'segmented' });
        const [copy] = res.indices.segmented.shards['0'] as Array<{ num_search_segments: number; segments: Record<string, { num_docs: number }> }>;
        expect(copy.num_search_segments).toBe(1);
        expect(Object.values(copy.segments).map((s) => s.num_docs)).toEqual([1]);
        const rows = await client.cat.segments({ index: 'segmented', format: 'json', h: ['index', 'docs.count'] });
        expect(rows).toEqual([{ index: 'segmented', 'docs.count': '1' }]);
        await client.indices.delete({ index: 'segmented' });
      });
    });

    describe('the bulk helper', () => {
      it(`indexes ${DOC_COUNT} generated documents in several requests with no failures`, () => {
        expect(bulkStats.total).toBe(DOC_COUNT);
        expect(bulkStats.successful).toBe(DOC_COUNT);
        expect(bulkStats.failed).toBe(0);
        expect(bulkStats.retry).toBe(0);
        expect(bulkStats.aborted).toBe(false);
        expect(bulkStats.bytes).toBeGreaterThan(40_000);
        expect(bulkDropped).toEqual([]);
        expect(bulkRequestCount).toBeGreaterThan(1);
      });

      it('refreshOnCompletion makes every document countable at once', async () => {
        const res = await client.count({ index: 'products' });
        expect(res.count).toBe(DOC_COUNT);
        const red = await client.count({ index: 'products', query: { term: { color: 'red' } } });
        expect(red.count).toBe(docs.filter((d) => d.color === 'red').length);
      });

      it('the helper marks its requests in x-elastic-client-meta', () => {
        const bulk = sent.find((r) => r.path === '/_bulk');
        expect(bulk?.headers['x-elastic-client-meta']).toMatch(/,h=bp$/);
      });
    });

    describe('documents', () => {
      it('index creates a document that get returns with its version', async () => {
        const created = await client.index({ index: 'notes', id: 'n1', document: { text: 'first note', likes: 1 } });
        expect(created.result).toBe('created');
        expect(created._id).toBe('n1');
        expect(created._index).toBe('notes');
        expect(created._version).toBe(1);
        const got = await client.get<{ text: string; likes: number }>({ index: 'notes', id: 'n1' });
        expect(got.found).toBe(true);
        expect(got._version).toBe(1);
        expect(got._source).toEqual({ text: 'first note', likes: 1 });
      });

      it('indexing the same id again replaces the document and bumps the version', async () => {
        await client.index({ index: 'notes', id: 'n2', document: { text: 'draft' } });
        const replaced = await client.index({ index: 'notes', id: 'n2', document: { text: 'final' } });
        expect(replaced.result).toBe('updated');
        expect(replaced._version).toBe(2);
        expect((await client.get<{ text: string }>({ index: 'notes', id: 'n2' }))._source).toEqual({ text: 'final' });
      });

      it('exists is true for a stored document and false (not an error) for a missing one', async () => {
        await client.index({ index: 'notes', id: 'n3', document: { text: 'here' } });
        expect(await client.exists({ index: 'notes', id: 'n3' })).toBe(true);
        expect(await client.exists({ index: 'notes', id: 'never-stored' })).toBe(false);
        expect(sent[sent.length - 1].method).toBe('HEAD');
      });

      it('update with a partial doc merges it into the stored source', async () => {
        await client.index({ index: 'notes', id: 'n4', document: { text: 'to edit', likes: 1, tags: ['a'] } });
        const updated = await client.update({ index: 'notes', id: 'n4', doc: { likes: 5, edited: true } });
        expect(updated.result).toBe('updated');
        expect(updated._version).toBe(2);
        const got = await client.get<Record<string, unknown>>({ index: 'notes', id: 'n4' });
        expect(got._source).toEqual({ text: 'to edit', likes: 5, tags: ['a'], edited: true });
      });

      it('delete removes the document, after which exists is false', async () => {
        await client.index({ index: 'notes', id: 'n5', document: { text: 'doomed' } });
        const deleted = await client.delete({ index: 'notes', id: 'n5' });
        expect(deleted.result).toBe('deleted');
        expect(deleted._version).toBe(2);
        expect(await client.exists({ index: 'notes', id: 'n5' })).toBe(false);
      });

      it('get of a missing document is a ResponseError 404 whose body says found:false', async () => {
        await client.index({ index: 'notes', id: 'n6', document: { text: 'keeps the index alive' } });
        const before = sent.length;
        const err = await rejection(() => client.get({ index: 'notes', id: 'missing' }));
        expect(err).toBeInstanceOf(errors.ResponseError);
        const e = err as ResponseErrorLike;
        expect(e.meta.statusCode).toBe(404);
        expect(e.meta.meta.attempts).toBe(0);
        expect(sent.length - before).toBe(1);
        expect(e.meta.body).toEqual({ _index: 'notes', _id: 'missing', found: false });
      });

      it('delete of a missing document is a ResponseError 404 whose body says not_found', async () => {
        await client.index({ index: 'notes', id: 'n7', document: { text: 'x' } });
        const err = await rejection(() => client.delete({ index: 'notes', id: 'missing' }));
        expect(err).toBeInstanceOf(errors.ResponseError);
        const e = err as ResponseErrorLike;
        expect(e.meta.statusCode).toBe(404);
        expect(e.meta.meta.attempts).toBe(0);
        expect(e.meta.body.result).toBe('not_found');
        expect(e.meta.body._id).toBe('missing');
      });
    });

    describe('search', () => {
      const noun = NOUNS[3];

      it('a match query finds exactly the documents containing the term', async () => {
        const expected = docs.filter((d) => d.title.split(' ').includes(noun)).map((d) => d.sku).sort();
        const res = await client.search<Product>({ index: 'products', query: { match: { title: noun } }, size: 1000 });
        expect(res.hits.total).toEqual({ value: expected.length, relation: 'eq' });
        expect(res.hits.hits.map((h) => h._id).sort()).toEqual(expected);
        for (const hit of res.hits.hits) {
          expect(hit._index).toBe('products');
          expect(hit._score).toBeGreaterThan(0);
          expect(hit._source).toEqual(bySku.get(hit._id!));
        }
        expect(res.hits.max_score).toBe(Math.max(...res.hits.hits.map((h) => h._score!)));
        expect(res._shards).toMatchObject({ total: 2, successful: 2, failed: 0 });
        expect(res.timed_out).toBe(false);
      });

      it('a bool query with filters narrows the match without changing its scores', async () => {
        const inRange = (d: Product) => d.title.split(' ').includes(noun) && d.color === 'red' && d.price >= 100 && d.price < 400;
        const expected = docs.filter(inRange).map((d) => d.sku).sort();
        expect(expected.length).toBeGreaterThan(3);
        const res = await client.search<Product>({
          index: 'products',
          size: 1000,
          query: {
            bool: {
              must: [{ match: { title: noun } }],
              filter: [{ term: { color: 'red' } }, { range: { price: { gte: 100, lt: 400 } } }],
            },
          },
        });
        expect(res.hits.total).toEqual({ value: expected.length, relation: 'eq' });
        expect(res.hits.hits.map((h) => h._id).sort()).toEqual(expected);
        const plain = await client.search({ index: 'products', size: 1000, query: { match: { title: noun } } });
        const plainScore = new Map(plain.hits.hits.map((h) => [h._id, h._score]));
        for (const hit of res.hits.hits) expect(hit._score).toBe(plainScore.get(hit._id));
      });

      it('sorts on a keyword then a numeric field and returns the sort values', async () => {
        const expected = [...docs].sort((a, b) => compareStrings(a.color, b.color) || b.price - a.price).slice(0, 10);
        const res = await client.search<Product>({ index: 'products', sort: [{ color: 'asc' }, { price: 'desc' }], size: 10 });
        expect(res.hits.hits.map((h) => h._id)).toEqual(expected.map((d) => d.sku));
        expect(res.hits.hits.map((h) => h.sort)).toEqual(expected.map((d) => [d.color, d.price]));
        // Sorting without a score: ES reports null scores.
        expect(res.hits.hits[0]._score).toBeNull();
      });

      it('sorts on an integer field descending with a keyword tie-break', async () => {
        const expected = [...docs].sort((a, b) => b.stock - a.stock || compareStrings(a.sku, b.sku)).slice(0, 7);
        const res = await client.search<Product>({ index: 'products', sort: [{ stock: { order: 'desc' } }, 'sku'], size: 7 });
        expect(res.hits.hits.map((h) => h._id)).toEqual(expected.map((d) => d.sku));
        expect(res.hits.hits.map((h) => h.sort)).toEqual(expected.map((d) => [d.stock, d.sku]));
      });

      it('_source filtering returns only the requested fields, or none', async () => {
        const list = await client.search<Partial<Product>>({ index: 'products', _source: ['sku', 'price'], sort: ['sku'], size: 3 });
        expect(list.hits.hits.map((h) => h._source)).toEqual(docs.slice(0, 3).map((d) => ({ sku: d.sku, price: d.price })));

        const pattern = await client.search<Partial<Product>>({
          index: 'products',
          _source: { includes: ['t*'], excludes: ['tags'] },
          sort: ['sku'],
          size: 2,
        });
        expect(pattern.hits.hits.map((h) => h._source)).toEqual(docs.slice(0, 2).map((d) => ({ title: d.title })));

        const none = await client.search({ index: 'products', _source: false, sort: ['sku'], size: 2 });
        expect(none.hits.hits.map((h) => h._id)).toEqual([docs[0].sku, docs[1].sku]);
        for (const hit of none.hits.hits) expect(hit).not.toHaveProperty('_source');
      });

      it('from and size page through a sorted result without gaps or overlaps', async () => {
        const expected = [...docs].sort((a, b) => a.price - b.price).slice(0, 75).map((d) => d.sku);
        const pages: string[] = [];
        for (let from = 0; from < 75; from += 25) {
          const page = await client.search({ index: 'products', sort: [{ price: 'asc' }], from, size: 25 });
          expect(page.hits.total).toEqual({ value: DOC_COUNT, relation: 'eq' });
          expect(page.hits.hits).toHaveLength(25);
          pages.push(...page.hits.hits.map((h) => h._id!));
        }
        expect(pages).toEqual(expected);
      });

      it('track_total_hits bounds, exacts or drops the total', async () => {
        const bounded = await client.search({ index: 'products', track_total_hits: 100, size: 0 });
        expect(bounded.hits.total).toEqual({ value: 100, relation: 'gte' });
        const exact = await client.search({ index: 'products', track_total_hits: true, size: 0 });
        expect(exact.hits.total).toEqual({ value: DOC_COUNT, relation: 'eq' });
        const dropped = await client.search({ index: 'products', track_total_hits: false, size: 1 });
        expect(dropped.hits).not.toHaveProperty('total');
        expect(dropped.hits.hits).toHaveLength(1);
      });

      it('helpers.search returns the sources, with ids, through filter_path', async () => {
        const expected = docs.filter((d) => d.color === 'blue').sort((a, b) => compareStrings(a.sku, b.sku)).slice(0, 5);
        const before = sent.length;
        const found = await client.helpers.search<Product>({ index: 'products', query: { term: { color: 'blue' } }, sort: ['sku'], size: 5 });
        expect(found).toEqual(expected.map((d) => ({ _id: d.sku, ...d })));
        const request = sent[before];
        expect(new URLSearchParams(request.querystring).get('filter_path')).toBe('hits.hits._id,hits.hits._source');
      });

      it('helpers.search of a query without hits returns an empty array', async () => {
        const found = await client.helpers.search({ index: 'products', query: { term: { color: 'purple' } } });
        expect(found).toEqual([]);
      });

      it('searching a missing index is a ResponseError 404 index_not_found_exception', async () => {
        const e = await expectResponseError(() => client.search({ index: 'no-such-index', query: { match_all: {} } }), 404, 'index_not_found_exception');
        expect(e.meta.body.error.reason).toBe('no such index [no-such-index]');
        expect(e.meta.body.error['resource.id']).toBe('no-such-index');
        expect(e.meta.body.error['resource.type']).toBe('index_or_alias');
        expect(e.meta.body.error.index).toBe('no-such-index');
      });

      it('an unknown query clause is a ResponseError 400 parsing_exception', async () => {
        const e = await expectResponseError(
          () => client.search({ index: 'products', query: { no_such_query: { title: 'x' } } as never }),
          400,
          'parsing_exception',
        );
        expect(e.meta.body.error.reason).toBe('unknown query [no_such_query]');
      });

      it('count with a query agrees with the generated documents', async () => {
        const res = await client.count({ index: 'products', query: { range: { stock: { gte: 10 } } } });
        expect(res.count).toBe(docs.filter((d) => d.stock >= 10).length);
        expect(res._shards.failed).toBe(0);
      });
    });

    describe('multi-request APIs and aliases', () => {
      it('msearch answers each search in order, a failing one in place with its status', async () => {
        const noun = NOUNS[3];
        const expected = docs.filter((d) => d.title.split(' ').includes(noun)).length;
        const res = await client.msearch<Product>({
          searches: [
            { index: 'products' }, { size: 0, query: { match: { title: noun } } },
            { index: 'no-such-index' }, { query: { match_all: {} } },
            {}, { size: 1, query: { ids: { values: [docs[0].sku] } } },
          ],
        }, { meta: true });
        expect(res.headers['content-type']).toBe(vendorJson);
        const [first, missing, third] = res.body.responses as any[];
        expect(first.status).toBe(200);
        expect(first.hits.total.value).toBe(expected);
        expect(missing.status).toBe(404);
        expect(missing.error.type).toBe('index_not_found_exception');
        expect(third.hits.hits[0]._id).toBe(docs[0].sku);
      });

      it('helpers.msearch batches searches through _msearch', async () => {
        const m = client.helpers.msearch({ operations: 2, flushInterval: 50 });
        try {
          const [a, b] = await Promise.all([
            m.search({ index: 'products' }, { query: { ids: { values: [docs[1].sku] } } }),
            m.search({ index: 'products' }, { query: { ids: { values: [docs[2].sku] } } }),
          ]);
          expect(a.documents.map((d: any) => d.sku)).toEqual([docs[1].sku]);
          expect(b.documents.map((d: any) => d.sku)).toEqual([docs[2].sku]);
        } finally {
          m.stop();
        }
        expect(sent.some((r) => r.path === '/_msearch')).toBe(true);
      });

      it('mget returns documents by id with per-document _source and found:false for missing ones', async () => {
        const res = await client.mget<Product>({
          docs: [{ _index: 'products', _id: docs[5].sku, _source: ['sku', 'price'] }, { _index: 'products', _id: 'nope' }],
        });
        const [hit, miss] = res.docs as any[];
        expect(hit.found).toBe(true);
        expect(hit._source).toEqual({ sku: docs[5].sku, price: docs[5].price });
        expect(miss).toEqual({ _index: 'products', _id: 'nope', found: false });
        const byIds = await client.mget<Product>({ index: 'products', ids: [docs[7].sku, docs[8].sku] });
        expect((byIds.docs as any[]).map((d) => d._source.sku)).toEqual([docs[7].sku, docs[8].sku]);
      });

      it('aliases: updateAliases, getAlias, existsAlias, search and writes through them, deleteAlias', async () => {
        await client.indices.create({ index: 'shop-1' });
        await client.indices.create({ index: 'shop-2' });
        expect(await client.indices.updateAliases({
          actions: [{ add: { index: 'shop-1', alias: 'shop' } }, { add: { index: 'shop-2', alias: 'shop', is_write_index: true } }],
        })).toMatchObject({ acknowledged: true });
        await client.indices.putAlias({ index: 'products', name: 'red-products', filter: { term: { color: 'red' } } });
        expect(await client.indices.existsAlias({ name: 'shop' })).toBe(true);
        expect(await client.indices.existsAlias({ name: 'nope' })).toBe(false);
        const got = await client.indices.getAlias({ name: 'shop' });
        expect(got).toEqual({ 'shop-1': { aliases: { shop: {} } }, 'shop-2': { aliases: { shop: { is_write_index: true } } } });
        const written = await client.index({ index: 'shop', id: 'x', document: { n: 1 }, refresh: true });
        expect(written._index).toBe('shop-2');
        expect((await client.count({ index: 'shop' })).count).toBe(1);
        expect((await client.count({ index: 'red-products' })).count).toBe(docs.filter((d) => d.color === 'red').length);
        await client.indices.deleteAlias({ index: 'shop-1', name: 'shop' });
        expect(Object.keys(await client.indices.getAlias({ name: 'shop' }))).toEqual(['shop-2']);
        // ES answers a missing alias with its string-form error body.
        const missing = (await rejection(() => client.indices.getAlias({ name: 'nope' }))) as ResponseErrorLike;
        expect(missing).toBeInstanceOf(errors.ResponseError);
        expect(missing.meta.statusCode).toBe(404);
        expect(missing.meta.body).toEqual({ error: 'alias [nope] missing', status: 404 });
      });

      it('update with doc_as_upsert creates, then merges', async () => {
        const created = await client.update({ index: 'shop-2', id: 'u', doc: { a: 1 }, doc_as_upsert: true });
        expect(created.result).toBe('created');
        const updated = await client.update({ index: 'shop-2', id: 'u', doc: { b: 2 } });
        expect(updated.result).toBe('updated');
        expect((await client.get({ index: 'shop-2', id: 'u' }))._source).toEqual({ a: 1, b: 2 });
      });
    });

    describe('with compression: true', () => {
      let gz: EsClient;
      let gzSent: SentRequest[];
      const few = products(500);

      beforeAll(() => {
        gz = newClient({ node: url, compression: true });
        gzSent = recordRequests(gz);
      });
      afterAll(async () => gz?.close());

      it('the bulk helper sends gzip bodies that are all indexed', async () => {
        const stats = await gz.helpers.bulk<Product>({
          datasource: few,
          onDocument: (doc) => ({ create: { _index: 'gzipped', _id: doc.sku } }),
          refreshOnCompletion: true,
        });
        expect(stats).toMatchObject({ total: 500, successful: 500, failed: 0, retry: 0, aborted: false });
        const bulk = gzSent.find((r) => r.path === '/_bulk');
        expect(bulk?.headers['content-encoding']).toBe('gzip');
        expect((await gz.count({ index: 'gzipped' })).count).toBe(500);
      });

      it('a gzip search body is decoded and answered', async () => {
        const noun = NOUNS[5];
        const expected = few.filter((d) => d.title.split(' ').includes(noun) && d.category === 'books').map((d) => d.sku).sort();
        expect(expected.length).toBeGreaterThan(0);
        const res = await gz.search<Product>(
          { index: 'gzipped', size: 500, query: { bool: { must: { match: { title: noun } }, filter: { term: { category: 'books' } } } } },
          { meta: true },
        );
        expect(gzSent[gzSent.length - 1].headers['content-encoding']).toBe('gzip');
        expect(res.headers['content-type']).toBe(vendorJson);
        expect(res.body.hits.hits.map((h) => h._id).sort()).toEqual(expected);
      });

      it('a gzip request that fails is still a plain ResponseError, not retried', async () => {
        const err = await rejection(() => gz.search({ index: 'gzipped', query: { no_such_query: {} } as never }));
        expect(err).toBeInstanceOf(errors.ResponseError);
        const e = err as ResponseErrorLike;
        expect(e.meta.statusCode).toBe(400);
        expect(e.meta.meta.attempts).toBe(0);
        expect(e.meta.body.error.type).toBe('parsing_exception');
      });
    });
  });
}
