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
 * Options: --es <url> (env THREADSEARCH_URL; default http://127.0.0.1:9200), --api-key <encoded key
 * with manage privileges; env THREADSEARCH_API_KEY>, --index <name> (default web-features).
 */
import { parseArgs } from 'node:util';
import { adminClient, DEFAULT_ES, esUrl, runMain } from '../admin-client.js';
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

export async function loadSample(options: LoadOptions): Promise<LoadResult> {
  const call = adminClient(options.es, options.apiKey);
  const index = options.index ?? SAMPLE_INDEX;
  const source = `${index}-source`;
  const log = options.log ?? (() => undefined);
  const docs = loadFeatureDocs().slice(0, options.limit);

  log(`model ${MODEL_ID}: register and start a deployment`);
  await call('PUT', `/_ml/trained_models/${MODEL_ID}`, { input: { field_names: ['text_field'] } }, (s, b) => s === 400 && /already exists/.test(b?.error?.reason ?? ''));
  await call('POST', `/_ml/trained_models/${MODEL_ID}/deployment/_start?wait_for=started`, undefined, (s, b) => s === 409 || /already (started|exists)|existing deployment with the same id/.test(b?.error?.reason ?? ''));

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

const USAGE = `Usage: npm run demo:load -- [options]

Loads the demo's sample (the web-features package's ~1,200 features) into a running server: starts
the built-in .sparse_model_2, puts the ingest pipeline ${SAMPLE_PIPELINE}, and reindexes the documents
through it into the index. Idempotent: what an earlier run made is replaced.

  --es <url>         the server (env THREADSEARCH_URL; default ${DEFAULT_ES})
  --api-key <key>    a key allowed to manage ML, pipelines and indices, e.g. the superuser key the
                     server printed at its first start (env THREADSEARCH_API_KEY)
  --index <name>     the index to create (default ${SAMPLE_INDEX})
  -h, --help         this text`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { es: { type: 'string' }, 'api-key': { type: 'string' }, index: { type: 'string', default: SAMPLE_INDEX }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const apiKey = values['api-key'] ?? (process.env.THREADSEARCH_API_KEY || undefined);
  const started = Date.now();
  const result = await loadSample({ es: esUrl(values.es), apiKey, index: values.index, log: (line) => console.log(line) });
  console.log(`loaded ${result.documents} documents into ${result.index} (${result.internal} internal) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) runMain('demo:load', main);
