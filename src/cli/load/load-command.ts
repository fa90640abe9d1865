/**
 * `threadsearch load <source> --index …`: checks the whole file first (a malformed line stops the
 * load before anything is sent), checks the server, the pipeline and the index (creating it when
 * absent, as the first write would), then bulk-loads with a
 * progress bar on a terminal and prints a summary. SIGINT stops reading, lets the requests in
 * flight finish and prints the line to resume from.
 */
import { CliError, EXIT } from '../cli-error.js';
import { EsClient, errorText } from '../es-client.js';
import { formatNumber } from '../report/markdown-table.js';
import { docsProgress, gracefulStop } from '../progress.js';
import { bulkLoad, loadExitCode, type BulkLoadSummary } from './bulk-loader.js';
import { checkSource, readDocuments, resolveSourceFile } from './source-reader.js';

export interface LoadCommandOptions {
  url: string;
  apiKey?: string;
  index: string;
  pipeline?: string;
  batch: number;
  concurrency: number;
  resumeFrom: number;
  idField?: string;
  maxRetries: number;
  progress: boolean;
}

export async function runLoad(sourcePath: string, opts: LoadCommandOptions): Promise<number> {
  const file = resolveSourceFile(sourcePath);
  const client = new EsClient(opts);
  const check = await checkSource(file, opts.resumeFrom, opts.idField);
  const server = await client.info();
  // An absent index is created here, as the first write would create it, so the server judges its
  // name (invalid_index_name_exception) before any document is sent.
  const existing = await client.request('HEAD', `/${encodeURIComponent(opts.index)}`, undefined, { allow: [404] });
  if (existing.status === 404) {
    const created = await client.request('PUT', `/${encodeURIComponent(opts.index)}`, undefined, { allow: [400] });
    if (created.status === 400) throw new CliError(`cannot create index [${opts.index.slice(0, 60)}]: ${errorText(created.body)}`, EXIT.usage);
  }
  if (opts.pipeline !== undefined) {
    const res = await client.request('GET', `/_ingest/pipeline/${encodeURIComponent(opts.pipeline)}`, undefined, { allow: [404] });
    if (res.status === 404) throw new CliError(`the server has no ingest pipeline [${opts.pipeline}]`, EXIT.usage);
  }
  process.stderr.write(`loading ${formatNumber(check.docs)} documents from ${file}${opts.resumeFrom > 1 ? ` (from line ${opts.resumeFrom})` : ''} into [${opts.index}] on ${client.url} (threadsearch/ES ${server.version})\n`);

  const bar = docsProgress(check.docs, opts.progress);
  const stop = gracefulStop();
  let summary: BulkLoadSummary;
  try {
    summary = await bulkLoad(client, readDocuments(file, opts.resumeFrom, opts.idField), {
      index: opts.index, pipeline: opts.pipeline, batch: opts.batch, concurrency: opts.concurrency, maxRetries: opts.maxRetries,
      stopRequested: stop.requested,
      onProgress: (n) => bar.add(n),
    });
  } finally {
    bar.stop();
    stop.dispose();
  }
  // Make what was loaded searchable now, as a user checking the result expects.
  await client.request('POST', `/${encodeURIComponent(opts.index)}/_refresh`, undefined, { allow: [404] });
  process.stdout.write(formatSummary(opts.index, summary));
  return loadExitCode(summary);
}

export function formatSummary(index: string, s: BulkLoadSummary): string {
  const rate = s.seconds > 0 ? Math.round((s.indexed + s.failed) / s.seconds) : 0;
  let out = `loaded ${formatNumber(s.indexed)} documents into [${index}] in ${s.seconds.toFixed(1)} s (${formatNumber(rate)} docs/s, ${formatNumber(s.requests)} _bulk requests)`;
  out += s.failed > 0 ? `; ${formatNumber(s.failed)} failed` : '; none failed';
  out += s.retried > 0 ? `; ${formatNumber(s.retried)} retried after 429\n` : '\n';
  if (s.failed > 0) {
    out += `failures by type: ${Object.entries(s.failuresByType).map(([t, n]) => `${t} ${n}`).join(', ')}\n`;
    out += 'first failures:\n';
    for (const f of s.firstFailures) out += `  line ${f.line}${f.id === undefined ? '' : ` (id ${f.id})`}: ${f.status} ${f.type}: ${f.reason}\n`;
  }
  if (s.resumeFrom !== undefined) out += `stopped early: to load the rest, run again with --resume-from ${s.resumeFrom}\n`;
  return out;
}
