/**
 * Runs every benchmark scenario, one child process each (so heaps and JIT state never mix), in
 * sequence. Each scenario writes bench/results/<scenario>.json and its BENCHMARKS.md section.
 *
 *   npm run bench
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCENARIOS = ['engine-bm25.js', 'bulk-index.js', 'http-search.js', 'http-auth.js', 'translog-durability.js', 'load-mixed.js', 'ml-inference.js', 'sparse-search.js', 'reindex-inference.js', 'hybrid-latency.js', 'sparse-http.js', 'hybrid-relevance.js', 'faceted-search.js', 'autocomplete.js', 'sparse-encode.js', 'sparse-relevance.js', 'pattern-engine.js', 'connector-bundle.js', 'export.js', 'snapshot.js'];

let failed = 0;
for (const file of SCENARIOS) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(process.execPath, [fileURLToPath(new URL(`./${file}`, import.meta.url))], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.error(`${file} failed with status ${run.status}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
