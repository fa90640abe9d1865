/**
 * `npm run demo:load`: loads the demo's sample data into a running server and sets up its
 * semantic side, in one command and idempotently (it replaces what an earlier run made):
 *
 * 1. registers and starts the built-in `.sparse_model_2` (already registered or started is fine);
 * 2. puts the ingest pipeline `web-features-elser` (inference: description → description_embedding);
 * 3. bulk-loads the web-features documents into `web-features-source`;
 * 4. creates `web-features` (search_as_you_type name, keywords, numbers, dates, completion,
 *    sparse_vector) and reindexes the source into it through the pipeline; deletes the source.
 *
 * Options: --es <url> (default http://127.0.0.1:9200), --api-key <encoded key with manage
 * privileges; env THREADSEARCH_API_KEY>, --index <name> (default web-features).
 */
import { parseArgs } from 'node:util';
import { loadFeatureDocs, SAMPLE_MAPPINGS, type FeatureDoc } from './web-features.js';

export const SAMPLE_INDEX = 'web-features';
export const SAMPLE_PIPELINE = 'web-features-elser';
export const MODEL_ID = '.sparse_model_2';

export interface LoadOptions {
  readonly es: string;
  readonly apiKey?: string;
  readonly index?: string;
  /** Progress lines; default: none. */
  readonly log?: (line: string) => void;
  /** Fewer documents, for tests (default: all). */
  readonly limit?: number;
}

export interface LoadResult {
  readonly index: string;
  readonly documents: number;
  readonly internal: number;
}

type Call = (method: string, path: string, body?: unknown, allow?: (status: number, body: any) => boolean) => Promise<any>;

function client(es: string, apiKey: string | undefined): Call {
  const base = es.replace(/\/+$/, '');
  return async (method, path, body, allow = () => false) => {
    const headers: Record<string, string> = { 'content-type': path.startsWith('/_bulk') ? 'application/x-ndjson' : 'application/json' };
    if (apiKey) headers.authorization = `ApiKey ${apiKey}`;
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : {};
    if (!res.ok && !allow(res.status, parsed)) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return parsed;
  };
}

export async function loadSample(options: LoadOptions): Promise<LoadResult> {
  const call = client(options.es, options.apiKey);
  const index = options.index ?? SAMPLE_INDEX;
  const source = `${index}-source`;
  const log = options.log ?? (() => undefined);
  const docs = loadFeatureDocs().slice(0, options.limit);

  log(`model ${MODEL_ID}: register and start a deployment`);
  await call('PUT', `/_ml/trained_models/${MODEL_ID}`, { input: { field_names: ['text_field'] } }, (s, b) => s === 400 && /already exists/.test(b?.error?.reason ?? ''));
  await call('POST', `/_ml/trained_models/${MODEL_ID}/deployment/_start?wait_for=started`, undefined, (s, b) => s === 409 || /already (started|exists)/.test(b?.error?.reason ?? ''));

  log(`pipeline ${SAMPLE_PIPELINE}: description → description_embedding`);
  await call('PUT', `/_ingest/pipeline/${SAMPLE_PIPELINE}`, {
    description: 'Encodes web-features descriptions with the built-in sparse model',
    processors: [{ inference: { model_id: MODEL_ID, input_output: [{ input_field: 'description', output_field: 'description_embedding' }] } }],
  });

  for (const name of [index, source]) await call('DELETE', `/${name}`, undefined, (s) => s === 404);
  await call('PUT', `/${source}`, { mappings: { properties: Object.fromEntries(Object.entries(SAMPLE_MAPPINGS.properties).filter(([f]) => f !== 'description_embedding')) } });
  log(`${source}: ${docs.length} documents`);
  const bulk = await call('POST', '/_bulk?refresh=true', ndjson(source, docs));
  if (bulk.errors) throw new Error(`bulk load failed: ${JSON.stringify(bulk.items.find((i: any) => i.index?.error)).slice(0, 500)}`);

  await call('PUT', `/${index}`, { settings: { number_of_shards: 2 }, mappings: SAMPLE_MAPPINGS });
  log(`${index}: reindex through ${SAMPLE_PIPELINE}`);
  const reindex = await call('POST', '/_reindex?wait_for_completion=true&refresh=true', { source: { index: source }, dest: { index, pipeline: SAMPLE_PIPELINE } });
  if (reindex.failures?.length) throw new Error(`reindex failed: ${JSON.stringify(reindex.failures[0]).slice(0, 500)}`);
  await call('DELETE', `/${source}`);
  const count = await call('GET', `/${index}/_count`);
  return { index, documents: count.count, internal: docs.filter((d) => d.visibility === 'internal').length };
}

function ndjson(index: string, docs: readonly FeatureDoc[]): string {
  return docs.map(({ id, ...doc }) => `${JSON.stringify({ index: { _index: index, _id: id } })}\n${JSON.stringify(doc)}\n`).join('');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { es: { type: 'string', default: 'http://127.0.0.1:9200' }, 'api-key': { type: 'string' }, index: { type: 'string', default: SAMPLE_INDEX } },
  });
  const apiKey = values['api-key'] ?? process.env.THREADSEARCH_API_KEY;
  const started = Date.now();
  const result = await loadSample({ es: values.es, apiKey, index: values.index, log: (line) => console.log(line) });
  console.log(`loaded ${result.documents} documents into ${result.index} (${result.internal} internal) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err: unknown) => {
    console.error(`demo:load failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
