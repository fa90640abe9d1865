/**
 * Scenario: snapshot time against index size. For each size, a fresh server (child process, its
 * own `--path-repo`) loads the synthetic BM25 corpus into a 2-shard index and flushes it; then,
 * one after another into the same repository:
 *
 *   full          the first snapshot (every segment file copied)
 *   unchanged     a second snapshot of the unchanged index (content-addressed: nothing copied)
 *   +1% docs      a snapshot after 1% more documents (only the new segments copied)
 *   restore       the first snapshot restored under a new name
 *
 * Each phase is timed from the request to the `wait_for_completion=true` answer, and the bytes and
 * files it copied come from the snapshot's `_status` (`stats.incremental`).
 *
 *   node dist/bench/snapshot.js [--sizes 10000,50000,200000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs } from './lib/args.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { bulkBodies, bulkLoad, jsonCaller, startThreadsearch } from './lib/server-process.js';

const DEFAULT_SIZES = '10000,50000,200000';
const USAGE = 'node dist/bench/snapshot.js [--sizes 10000,50000,200000]';
const { values } = benchArgs(USAGE, { options: { sizes: { type: 'string' } } });
const SIZES = (values.sizes ?? DEFAULT_SIZES).split(',').map(Number);
const corpus = generateBm25Corpus({ docs: Math.max(...SIZES) * 1.01 + 1, queries: 1 });

interface Phase {
  readonly ms: number;
  readonly files_copied: number;
  readonly bytes_copied: number;
  readonly files_total: number;
  readonly bytes_total: number;
}

interface Row {
  readonly docs: number;
  readonly full: Phase;
  readonly unchanged: Phase;
  readonly plus_1pct: Phase;
  readonly restore_ms: number;
  readonly otherCores: number;
}

async function measure(docs: number): Promise<Row> {
  const repo = mkdtempSync(join(tmpdir(), 'threadsearch-bench-repo-'));
  const server = await startThreadsearch(['--path-repo', repo, '--threads', '2']);
  try {
    const call = jsonCaller(server.url);
    await call('PUT', '/bench', { settings: { number_of_shards: 2, refresh_interval: '-1' }, mappings: { properties: { text: { type: 'text' } } } });
    await bulkLoad(server.url, bulkBodies('bench', corpus.docs.slice(0, docs), 5000), 2);
    await call('POST', '/bench/_flush');
    await call('PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'repo' } });
    const probe = startCpuProbe({ pids: [server.pid] });
    const snap = async (name: string): Promise<Phase> => {
      const t0 = performance.now();
      await call('PUT', `/_snapshot/repo/${name}?wait_for_completion=true`, { indices: 'bench' });
      const ms = performance.now() - t0;
      const { stats } = (await call('GET', `/_snapshot/repo/${name}/_status`)).snapshots[0];
      return {
        ms, files_copied: stats.incremental.file_count, bytes_copied: stats.incremental.size_in_bytes, files_total: stats.total.file_count, bytes_total: stats.total.size_in_bytes,
      };
    };
    const full = await snap('full');
    const unchanged = await snap('unchanged');
    const extra = Math.max(1, Math.round(docs / 100));
    await bulkLoad(server.url, bulkBodies('bench', corpus.docs.slice(docs, docs + extra), 5000), 1);
    await call('POST', '/bench/_refresh');
    const plus = await snap('plus');
    const t0 = performance.now();
    await call('POST', '/_snapshot/repo/full/_restore?wait_for_completion=true', { rename_pattern: '(.+)', rename_replacement: 'restored_$1' });
    const restoreMs = performance.now() - t0;
    const count = (await call('GET', '/restored_bench/_count')).count as number;
    if (count !== docs) throw new Error(`restored ${count} docs, expected ${docs}`);
    const cpu = probe.stop();
    const row = { docs, full, unchanged, plus_1pct: plus, restore_ms: restoreMs, otherCores: cpu.otherCores };
    console.log(`${docs} docs: full ${full.ms.toFixed(0)} ms (${(full.bytes_copied / 1e6).toFixed(1)} MB, ${full.files_copied} files), unchanged ${unchanged.ms.toFixed(0)} ms (${unchanged.files_copied} files), +1% ${plus.ms.toFixed(0)} ms (${plus.files_copied} files, ${(plus.bytes_copied / 1e6).toFixed(2)} MB), restore ${restoreMs.toFixed(0)} ms, otherCores ${cpu.otherCores.toFixed(2)}`);
    return row;
  } finally {
    await server.stop();
    rmSync(repo, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const docs of SIZES) rows.push(await measure(docs));

const mb = (b: number) => formatNumber(b / 1e6);
if ((values.sizes ?? DEFAULT_SIZES) === DEFAULT_SIZES) {
  writeResult('snapshot', { params: { sizes: SIZES, shards: 2 }, rows });
  updateBenchmarksMd(
    'snapshot',
    markdownTable(
      ['docs', 'index MB', 'full ms', 'full MB/s', 'unchanged ms (files copied)', '+1% docs ms (files / MB copied)', 'restore ms', 'otherCores'],
      rows.map((r) => [
        r.docs, mb(r.full.bytes_total), Math.round(r.full.ms), formatNumber(r.full.bytes_copied / 1e6 / (r.full.ms / 1000)),
        `${Math.round(r.unchanged.ms)} (${r.unchanged.files_copied})`, `${Math.round(r.plus_1pct.ms)} (${r.plus_1pct.files_copied} / ${mb(r.plus_1pct.bytes_copied)})`,
        Math.round(r.restore_ms), formatNumber(r.otherCores),
      ]),
    ),
    `Snapshot time against index size on a shared-filesystem repository (same disk as the data directory). A 2-shard index of the synthetic BM25 corpus, flushed before the first snapshot; every phase is one \`wait_for_completion=true\` request, timed at the client, with the bytes and files copied from \`_status\` (\`stats.incremental\`). "unchanged" is a second snapshot of the same index: content-addressed blobs mean nothing is copied and the time is the flush check plus the metadata and root writes. "+1% docs" copies only the new segment(s). Restore copies every blob of the first snapshot into a new index and recovers it. Run: \`node dist/bench/snapshot.js\`.`,
  );
}
