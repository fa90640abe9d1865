/**
 * `threadsearch export --to URL`: copies indices — settings, mappings, aliases, documents — and
 * the ingest pipelines from one server (threadsearch by default) to another (Elasticsearch,
 * OpenSearch, or threadsearch), then compares document counts per index.
 *
 * Existing targets (ES-Rally's create-index / elasticdump semantics made explicit): by default an
 * index or pipeline that already exists on the target (with another definition, for a pipeline)
 * stops the export before anything is written; `--skip-existing` leaves it as it is and copies
 * nothing into it; `--overwrite` deletes the index (puts the pipeline) and copies afresh.
 */
import { isDeepStrictEqual } from 'node:util';
import { CliError, EXIT } from '../cli-error.js';
import { EsClient, errorText } from '../es-client.js';
import { formatNumber } from '../report/markdown-table.js';
import { gracefulStop } from '../progress.js';
import type { RetryOptions } from '../retry.js';
import { CheckpointFile } from './checkpoint.js';
import { copyIndex, type IndexCopyResult } from './index-copy.js';
import { planPipeline, parseModelMap, serverKind, BUILT_IN_SPARSE_MODEL, type ServerKind } from './target-translation.js';

export interface ExportCommandOptions {
  from: string;
  to: string;
  apiKey?: string;
  fromApiKey?: string;
  toApiKey?: string;
  toUser?: string;
  index: string;
  resume: boolean;
  checkpoint: string;
  batchSize: number;
  concurrency: number;
  maxRetries: number;
  overwrite: boolean;
  skipExisting: boolean;
  modelMap: string[];
  keepAlive: string;
  requestsPerSecond?: number;
  progress: boolean;
}

const enc = encodeURIComponent;

interface SourceIndex {
  name: string;
  meta: any;
}

export async function runExport(opts: ExportCommandOptions): Promise<number> {
  if (opts.overwrite && opts.skipExisting) throw new CliError('--overwrite and --skip-existing exclude each other', EXIT.usage);
  const modelMap = parseModelMap(opts.modelMap);
  if (typeof modelMap === 'string') throw new CliError(`--model-map takes from=to (e.g. ${BUILT_IN_SPARSE_MODEL}=.elser_model_2), got [${modelMap.slice(0, 60)}]`, EXIT.usage);
  if (!/^\d+[smhd]$/.test(opts.keepAlive)) throw new CliError(`--keep-alive must be a time such as 5m, got [${opts.keepAlive.slice(0, 20)}]`, EXIT.usage);
  const source = new EsClient({ url: opts.from, apiKey: opts.fromApiKey ?? opts.apiKey, credentialsHint: 'pass a valid --from-api-key (or --api-key)', urlFlag: '--from' });
  const target = new EsClient({
    url: opts.to, apiKey: opts.toApiKey ?? (opts.toUser === undefined ? opts.apiKey : undefined), basicAuth: opts.toUser,
    credentialsHint: 'pass a valid --to-api-key or --to-user user:password (or --api-key)', urlFlag: '--to',
  });
  if (source.url === target.url) throw new CliError(`--from and --to are the same server (${source.url})`, EXIT.usage);
  const sourceInfo = await source.info();
  const targetInfo = await target.info();
  const targetKind = serverKind(targetInfo);
  const checkpoint = opts.resume ? CheckpointFile.resume(opts.checkpoint, source.url, target.url) : CheckpointFile.start(opts.checkpoint, source.url, target.url);
  const notes: string[] = [];
  const note = (n: string) => notes.push(n);

  const indices = await listIndices(source, opts.index, note);
  if (indices.length === 0 && notes.length === 0) throw new CliError(`no index on ${source.url} matches [${opts.index.slice(0, 60)}]`, EXIT.usage);
  const pipelines = (await source.request<Record<string, any>>('GET', '/_ingest/pipeline', undefined, { allow: [404] })).body ?? {};
  const pipelinePlans = Object.entries(pipelines).map(([id, p]) => ({ id, plan: planPipeline(p, modelMap, targetKind) }));

  // Everything that already exists on the target is judged before anything is written.
  const existing = new Set<string>();
  for (const { name } of indices) {
    if (checkpoint.index(name) !== undefined) continue; // created by the run being resumed
    if ((await target.request('HEAD', `/${enc(name)}`, undefined, { allow: [404] })).status !== 404) existing.add(name);
  }
  const pipelinesToPut: typeof pipelinePlans = [];
  const conflictingPipelines: string[] = [];
  for (const p of pipelinePlans) {
    const there = await target.request<Record<string, unknown>>('GET', `/_ingest/pipeline/${enc(p.id)}`, undefined, { allow: [404] });
    if (there.status === 404) pipelinesToPut.push(p);
    else if (isDeepStrictEqual(there.body?.[p.id], p.plan.body)) continue; // already there as it is (or put by the resumed run)
    else if (opts.overwrite) pipelinesToPut.push(p);
    else if (opts.skipExisting) note(`pipeline [${p.id}]: exists on the target with another definition; left as it is (--skip-existing)`);
    else conflictingPipelines.push(p.id);
  }
  if (!opts.overwrite && !opts.skipExisting && (existing.size > 0 || conflictingPipelines.length > 0)) {
    const what = [...[...existing].map((i) => `index [${i}]`), ...conflictingPipelines.map((p) => `pipeline [${p}]`)];
    throw new CliError(`the target already has ${what.slice(0, 10).join(', ')}${what.length > 10 ? ` and ${what.length - 10} more` : ''}: pass --skip-existing to leave them as they are, or --overwrite to replace them (nothing was written)`, EXIT.usage);
  }

  process.stderr.write(`exporting ${indices.length} ${indices.length === 1 ? 'index' : 'indices'} and ${pipelinePlans.length} pipeline(s) from ${source.url} (ES ${sourceInfo.version}) to ${target.url} (${targetKind} ${targetInfo.version})${opts.resume ? ', resuming' : ''}\n`);

  const failures: string[] = [];
  for (const { id, plan } of pipelinesToPut) {
    // A pipeline the target cannot run (OpenSearch has no inference processor) does not stop the
    // documents: their stored vectors are copied as they are.
    const put = await target.request('PUT', `/_ingest/pipeline/${enc(id)}`, plan.body, { allow: [400] });
    if (put.status === 400) failures.push(`pipeline [${id}]: the target refused it: ${errorText(put.body)}`);
  }
  for (const { id, plan } of pipelinePlans) {
    for (const m of plan.mapped) note(`pipeline [${id}]: inference model ${m}`);
    for (const m of plan.missingModels) {
      note(`pipeline [${id}]: runs ${m}, which ${targetKind === 'opensearch' ? 'OpenSearch' : 'Elasticsearch'} does not have — deploy ELSER and export again with --model-map ${m}=.elser_model_2 --overwrite, or keep the stored vectors (copied as they are) and index new documents elsewhere`);
    }
  }

  const stop = gracefulStop();
  const retry: RetryOptions = { maxRetries: opts.maxRetries };
  const results: IndexCopyResult[] = [];
  try {
    for (const { name, meta } of indices) {
      if (stop.requested()) break;
      if (checkpoint.index(name)?.state === 'done') {
        note(`[${name}]: copied by the run being resumed`);
        continue;
      }
      if (existing.has(name)) {
        if (opts.skipExisting) {
          note(`[${name}]: exists on the target; left as it is (--skip-existing)`);
          continue;
        }
        await target.request('DELETE', `/${enc(name)}`);
      }
      if (meta.mappings?._source?.enabled === false) {
        failures.push(`[${name}]: _source is disabled, so its documents cannot be read back; index them again from their origin`);
        continue;
      }
      try {
        results.push(await copyIndex(source, target, targetKind, name, meta, checkpoint, {
          batchSize: opts.batchSize, concurrency: opts.concurrency, retry, keepAlive: opts.keepAlive,
          pagesPerSecond: opts.requestsPerSecond ?? 0, progress: opts.progress, stopRequested: stop.requested, onNote: note,
        }));
      } catch (e) {
        // A refused index (its settings, its name) does not stop the others; a dead server does.
        if (!(e instanceof CliError) || !/^the target refused to create/.test(e.message)) throw e;
        failures.push(e.message);
      }
    }
  } finally {
    stop.dispose();
  }
  const stopped = stop.requested() || results.some((r) => r.stopped);
  process.stdout.write(formatExportSummary(results, notes, failures, stopped, opts.checkpoint));
  const mismatched = results.some((r) => !r.stopped && (r.failed > 0 || r.targetCount !== r.sourceCount));
  if (stopped) return EXIT.interrupted;
  if (failures.length === 0 && !mismatched) checkpoint.remove();
  return failures.length > 0 ? EXIT.failed : mismatched ? EXIT.partial : EXIT.ok;
}

/** The indices to copy, in name order; system indices, data streams and closed indices are noted and left. */
async function listIndices(source: EsClient, pattern: string, note: (n: string) => void): Promise<SourceIndex[]> {
  const cat = await source.request<any>('GET', `/_cat/indices/${enc(pattern)}?format=json&h=index,status&expand_wildcards=all`, undefined, { allow: [404] });
  const rows: Array<{ index: string; status?: string }> = cat.status === 404 || !Array.isArray(cat.body) ? [] : cat.body;
  const streams = await source.request<any>('GET', `/_data_stream/${enc(pattern)}`, undefined, { allow: [400, 404] });
  for (const ds of streams.body?.data_streams ?? []) note(`data stream [${ds.name}]: skipped (export copies indices; recreate the stream's template on the target and reindex into it)`);
  const out: SourceIndex[] = [];
  for (const row of rows.sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : 0))) {
    if (row.index.startsWith('.')) {
      note(`[${row.index}]: skipped (a system or hidden index)`);
      continue;
    }
    if (row.status === 'close') {
      note(`[${row.index}]: skipped (closed; open it to export it)`);
      continue;
    }
    const meta = (await source.request<any>('GET', `/${enc(row.index)}`)).body?.[row.index];
    out.push({ name: row.index, meta });
  }
  return out;
}

export function formatExportSummary(results: readonly IndexCopyResult[], notes: readonly string[], failures: readonly string[], stopped: boolean, checkpointPath: string): string {
  let out = '';
  let docs = 0;
  let seconds = 0;
  for (const r of results) {
    docs += r.indexed + r.failed;
    seconds += r.seconds;
    const rate = r.seconds > 0 ? Math.round((r.bulk?.indexed ?? 0) / r.seconds) : 0;
    const thisRun = r.bulk !== undefined && r.bulk.indexed !== r.indexed ? ` (${formatNumber(r.bulk.indexed)} in this run)` : '';
    out += `[${r.index}] ${formatNumber(r.indexed)} documents copied${thisRun} in ${r.seconds.toFixed(1)} s (${formatNumber(rate)} docs/s)`;
    out += r.failed > 0 ? `; ${formatNumber(r.failed)} failed` : '';
    if (r.stopped) out += '; stopped early\n';
    else if (r.targetCount === r.sourceCount) out += `; count verified: ${formatNumber(r.targetCount)} on both\n`;
    else out += `; COUNT MISMATCH: source ${formatNumber(r.sourceCount)}, target ${formatNumber(r.targetCount ?? 0)}\n`;
    if (r.bulk && r.bulk.failed > 0) {
      out += `  failures by type: ${Object.entries(r.bulk.failuresByType).map(([t, n]) => `${t} ${n}`).join(', ')}\n`;
      for (const f of r.bulk.firstFailures) out += `  id ${f.id}: ${f.status} ${f.type}: ${f.reason}\n`;
    }
  }
  for (const n of notes) out += `note: ${n}\n`;
  for (const f of failures) out += `failed: ${f}\n`;
  out += `exported ${results.length} ${results.length === 1 ? 'index' : 'indices'}, ${formatNumber(docs)} documents in ${seconds.toFixed(1)} s\n`;
  if (stopped) out += `stopped early: run the same command with --resume to continue from ${checkpointPath}\n`;
  return out;
}
