/**
 * Scenario: what open scroll and point-in-time contexts pin. An index of `--docs` short documents
 * (2 shards, built in 20 refreshes) keeps changing — each round indexes 1% new documents, deletes
 * some, refreshes and force-merges to one segment — while 100 contexts (50 scrolls, 50 PITs,
 * keep_alive 10 m) are opened one per round, so they hold many different generations of segments.
 * Measured: the bytes of the buffers the search pool keeps for its workers (announced, not dropped
 * — SharedArrayBuffers are not in process.memoryUsage().arrayBuffers), next to the bytes of the
 * distinct segments the contexts reference plus the current ones; then again once every context
 * has been given a 1 s keep-alive by one more page and has expired (only the current segments
 * should remain).
 *
 *   node --expose-gc dist/bench/search-contexts-memory.js [--docs 200000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchArgs, numberOption, usageError } from './lib/args.js';
import { createApp } from '../src/app.js';
import { defaultConfig } from '../src/config/config.js';
import { generateBm25Corpus } from '../src/cli/corpus/corpus.js';
import { bulkBodies } from './lib/server-process.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node --expose-gc dist/bench/search-contexts-memory.js [--docs 200000]';
const { values } = benchArgs(USAGE, { options: { docs: { type: 'string' } } });
const DOCS = numberOption(USAGE, values.docs, 'docs', 200_000);
const CONTEXTS = 100;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) usageError(USAGE, 'run with node --expose-gc');

const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-contexts-'));
const app = await createApp(defaultConfig({ host: '127.0.0.1', port: 0, dataDir, threads: 2, logLevel: 'warn', securityEnabled: false, maxOpenScrollContexts: 1000 }));
const call = async (method: string, url: string, body?: unknown, ndjson = false) => {
  const res = await app.http.app.inject({ method: method as 'GET', url, payload: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' } });
  return JSON.parse(res.body || '{}');
};
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  return app.pool.retainedBytes();
};
const currentBytes = () => app.indices.get('ctx')!.shards.flatMap((s) => s.snapshot.segments).reduce((n, s) => n + s.sab.byteLength + (s.liveDocs?.byteLength ?? 0), 0);

try {
  const corpus = generateBm25Corpus({ docs: DOCS + CONTEXTS * Math.ceil(DOCS / 100), queries: 1 });
  await call('PUT', '/ctx', { settings: { number_of_shards: 2, refresh_interval: '-1' }, mappings: { properties: { text: { type: 'text' } } } });
  const initial = bulkBodies('ctx', corpus.docs.slice(0, DOCS), Math.ceil(DOCS / 20));
  for (const body of initial) {
    await call('POST', '/_bulk', body, true);
    await call('POST', '/ctx/_refresh');
  }
  await call('POST', '/ctx/_forcemerge?max_num_segments=1');
  const baseline = await settle();
  const baseSegments = currentBytes();
  const perRound = Math.ceil(DOCS / 100);
  const t0 = performance.now();
  const scrolls: string[] = [];
  const pits: string[] = [];
  for (let round = 0; round < CONTEXTS; round++) {
    if (round % 2 === 0) {
      const r = await call('POST', '/ctx/_search?scroll=10m', { size: 10, query: { match_all: {} } });
      if (!r._scroll_id) throw new Error(JSON.stringify(r));
      scrolls.push(r._scroll_id);
    } else {
      const r = await call('POST', '/ctx/_pit?keep_alive=10m');
      if (!r.id) throw new Error(JSON.stringify(r));
      pits.push(r.id);
    }
    const start = DOCS + round * perRound;
    let body = bulkBodies('ctx', corpus.docs.slice(start, start + perRound), perRound)[0];
    for (let d = 0; d < 20; d++) body += `{"delete":{"_index":"ctx","_id":"${corpus.docs[(round * 20 + d) % DOCS].id}"}}\n`;
    await call('POST', '/_bulk', body, true);
    await call('POST', '/ctx/_refresh');
    if (round % 5 === 4) await call('POST', '/ctx/_forcemerge?max_num_segments=1');
  }
  const churnS = (performance.now() - t0) / 1000;
  const open = app.searchContexts.openCount('scroll') + app.searchContexts.openCount('pit');
  const held = app.searchContexts.heldBytes();
  const current = currentBytes();
  const withContexts = await settle();
  // Expiry: one more page each with a 1 s keep-alive, then the one-second sweep.
  for (const id of scrolls) await call('POST', '/_search/scroll', { scroll_id: id, scroll: '1s' });
  for (const id of pits) await call('POST', '/_search', { size: 1, pit: { id, keep_alive: '1s' } });
  await new Promise((r) => setTimeout(r, 2500));
  const openAfter = app.searchContexts.openCount('scroll') + app.searchContexts.openCount('pit');
  const afterExpiry = await settle();
  const currentAfter = currentBytes();
  const mb = (b: number) => b / 1024 / 1024;
  const rows = [
    { state: `${open} contexts open`, array_buffers_mb: mb(withContexts), referenced_mb: mb(held + current), current_mb: mb(current) },
    { state: `after expiry (${openAfter} open)`, array_buffers_mb: mb(afterExpiry), referenced_mb: mb(currentAfter), current_mb: mb(currentAfter) },
  ];
  for (const r of rows) console.log(`${r.state}: pool retains ${r.array_buffers_mb.toFixed(1)} MB, segments referenced ${r.referenced_mb.toFixed(1)} MB (current ${r.current_mb.toFixed(1)} MB)`);
  console.log(`baseline segments ${mb(baseSegments).toFixed(1)} MB (pool ${mb(baseline).toFixed(1)} MB); ${CONTEXTS} rounds of churn in ${churnS.toFixed(1)} s`);
  {
    writeResult('search-contexts-memory', { params: { docs: DOCS, contexts: CONTEXTS, per_round_docs: perRound }, rows, baseline_segments_mb: mb(baseSegments), churn_s: churnS });
    updateBenchmarksMd(
      'search-contexts-memory',
      markdownTable(['state', 'pool-retained buffers MB', 'segments referenced MB', 'current segments MB'],
        rows.map((r) => [r.state, formatNumber(r.array_buffers_mb), formatNumber(r.referenced_mb), formatNumber(r.current_mb)])),
      `${DOCS / 1000}k short docs, 2 shards; ${CONTEXTS} rounds each opening a scroll or a PIT (keep_alive 10 m), then indexing 1% new docs, deleting 20 and refreshing, force-merging to one segment every 5th round, so the contexts hold many generations. "Pool-retained" is the bytes of the segment and live-docs buffers the search pool keeps for its workers (announced and not dropped); "segments referenced" sums the distinct buffers the open contexts and the shards reference. Equal means contexts pin nothing but their segments; after each context got a 1 s keep-alive and expired, only the current segments remain. Run: \`node --expose-gc dist/bench/search-contexts-memory.js [--docs N]\` (this run: ${DOCS / 1000}k docs, on a loaded machine${DOCS < 200_000 ? '; the issue asks for 200k' : ''}).`,
    );
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
