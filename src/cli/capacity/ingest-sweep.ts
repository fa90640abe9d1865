/**
 * The ingest sweep: documents through an ingest pipeline with the inference processor
 * (`.sparse_model_2`, text → sparse_vector) on one threadsearch child process, for each
 * model deployment of `allocations` × `threads_per_allocation`. The deployment is stopped and
 * started again between points; each point writes into a fresh index, so every figure is the
 * whole write path (pipeline → encode → index → translog) in docs/s. With `simulate`, the
 * deployments run in simulation mode, so the figures are a BERT-base-class model's cost.
 */
import { CliError } from '../cli-error.js';
import { EsClient } from '../es-client.js';
import { bulkLoad } from '../load/bulk-loader.js';
import { startThreadsearch } from '../server-process.js';
import { iterate, type SampleData } from './sample-data.js';

export interface IngestPoint {
  allocations: number;
  threads_per_allocation: number;
  docs: number;
  docs_per_s: number;
  seconds: number;
  /** The simulation graph the deployment ran (absent: the built-in model's own cost). */
  simulate?: string;
}

const MODEL = '.sparse_model_2';

/** The first string field of the first document: the text the pipeline encodes. */
export function textFieldOf(data: SampleData): string {
  for (const [k, v] of Object.entries(data.docs[0]?.source ?? {})) if (typeof v === 'string') return k;
  throw new CliError('capacity: the sample documents have no string field to encode for the ingest sweep');
}

export async function measureIngest(
  data: SampleData, allocations: readonly number[], threadsPerAllocation: readonly number[], searchThreads: number, log: (l: string) => void,
  simulate: string | null = null,
): Promise<IngestPoint[]> {
  // A simulated deployment generates (first use) and loads a ~440 MB graph: minutes on a busy machine.
  const startTimeout = simulate ? '900s' : '120s';
  const simulation = simulate ? `&simulate=${simulate}` : '';
  // Warm-up documents: a transformer's cost makes 50 take minutes.
  const warmUp = simulate ? 4 : 50;
  const processors = Math.max(...allocations) * Math.max(...threadsPerAllocation);
  const server = await startThreadsearch(['--threads', String(searchThreads), '--ml-nodes', `capacity-ml:16gb:${processors}`]);
  const points: IngestPoint[] = [];
  try {
    const client = new EsClient({ url: server.url });
    const field = textFieldOf(data);
    await client.request('PUT', `/_ml/trained_models/${MODEL}`, { input: { field_names: ['text_field'] } });
    await client.request('PUT', '/_ingest/pipeline/capacity-encode', { processors: [{ inference: { model_id: MODEL, input_output: [{ input_field: field, output_field: `${field}_embedding` }] } }] });
    for (const a of allocations) {
      for (const t of threadsPerAllocation) {
        await client.request('POST', `/_ml/trained_models/${MODEL}/deployment/_start?number_of_allocations=${a}&threads_per_allocation=${t}&wait_for=fully_allocated&timeout=${startTimeout}${simulation}`);
        const index = `capacity-ingest-${a}-${t}`;
        await client.request('PUT', `/${index}`, { mappings: { properties: { [`${field}_embedding`]: { type: 'sparse_vector' } } } });
        // Warm-up on a throwaway index: the first requests load the model into the threads.
        await bulkLoad(client, iterate(data.docs.slice(0, warmUp)), { index: `${index}-warm`, pipeline: 'capacity-encode', batch: warmUp, concurrency: 1, maxRetries: 8 });
        const r = await bulkLoad(client, iterate(data.docs), { index, pipeline: 'capacity-encode', batch: simulate ? 8 : 100, concurrency: Math.max(2, a), maxRetries: 8 });
        if (r.failed > 0) throw new CliError(`capacity: ${r.failed} documents failed the inference pipeline (${Object.keys(r.failuresByType).join(', ')})`);
        points.push({ allocations: a, threads_per_allocation: t, docs: data.docs.length, docs_per_s: data.docs.length / r.seconds, seconds: r.seconds, ...(simulate ? { simulate } : {}) });
        log(`  ingest ${a} allocation(s) × ${t} thread(s)${simulate ? ` (simulated ${simulate})` : ''}: ${(data.docs.length / r.seconds).toFixed(1)} docs/s`);
        await client.request('POST', `/_ml/trained_models/${MODEL}/deployment/_stop`);
      }
    }
  } finally {
    await server.stop();
  }
  return points;
}
