/**
 * The source data of the export tests: an index with two shards, custom analysis, a
 * `sparse_vector` field filled with stored vectors, a filtered alias and a `.sparse_model_2`
 * inference pipeline as its default pipeline; a second one-shard index; and a dot-prefixed index
 * the export must leave alone.
 */
import { SUPERUSER_KEY, call } from './cli-harness.js';

export const BOOKS_SETTINGS = {
  number_of_shards: 2,
  analysis: { analyzer: { folded: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } },
  default_pipeline: 'elser-v2',
};
export const BOOKS_MAPPINGS = {
  properties: { title: { type: 'text', analyzer: 'folded' }, year: { type: 'integer' }, tag: { type: 'keyword' }, emb: { type: 'sparse_vector' } },
};
export const ELSER_PIPELINE = {
  description: 'title → emb',
  processors: [{ inference: { model_id: '.sparse_model_2', input_output: [{ input_field: 'title', output_field: 'emb' }] } }],
};

export function book(i: number): Record<string, unknown> {
  return { title: `Book number ${i} of the shelf`, year: 1900 + (i % 120), tag: `t${i % 7}`, emb: { book: 1 + (i % 5) / 4, [`n${i % 13}`]: 0.5 } };
}

export async function bulk(url: string, ndjson: string): Promise<any> {
  const res = await fetch(`${url}/_bulk?refresh=true&pipeline=_none`, {
    method: 'POST', headers: { authorization: `ApiKey ${SUPERUSER_KEY}`, 'content-type': 'application/x-ndjson' }, body: ndjson,
  });
  const body = await res.json();
  if (body.errors) throw new Error(`fixture bulk failed: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

export async function createSource(url: string, books: number, notes = 30): Promise<void> {
  const ok = (r: { status: number; body: any }) => {
    if (r.status >= 300) throw new Error(`fixture: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  ok(await call(url, 'PUT', '/_ingest/pipeline/elser-v2', ELSER_PIPELINE));
  ok(await call(url, 'PUT', '/books', { settings: BOOKS_SETTINGS, mappings: BOOKS_MAPPINGS, aliases: { 'old-books': { filter: { range: { year: { lt: 1950 } } } }, library: {} } }));
  ok(await call(url, 'PUT', '/notes', { settings: { number_of_shards: 1 }, mappings: { properties: { body: { type: 'text' } } } }));
  ok(await call(url, 'PUT', '/.internal', {}));
  for (let from = 0; from < books; from += 200) {
    let nd = '';
    for (let i = from; i < Math.min(books, from + 200); i++) nd += `${JSON.stringify({ index: { _index: 'books', _id: `b${i}` } })}\n${JSON.stringify(book(i))}\n`;
    await bulk(url, nd);
  }
  let nd = '';
  for (let i = 0; i < notes; i++) nd += `${JSON.stringify({ index: { _index: 'notes', _id: `n${i}` } })}\n${JSON.stringify({ body: `note ${i}` })}\n`;
  await bulk(url, nd);
}

/** Every `_id` of an index (small test indices: one page). */
export async function allIds(url: string, index: string): Promise<string[]> {
  const r = await call(url, 'POST', `/${index}/_search`, { size: 10_000, _source: false, query: { match_all: {} } });
  return r.body.hits.hits.map((h: { _id: string }) => h._id);
}
