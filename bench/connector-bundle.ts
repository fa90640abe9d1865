/**
 * Browser weight of the Search UI connector: threadsearch's (`threadsearch/connector`) next to
 * Elastic's `@elastic/search-ui-elasticsearch-connector` 1.24.2, each bundled alone the same way
 * (esbuild, ESM, platform browser, minified, everything it imports included) and gzipped (level 9).
 * Also reports the time from keystroke to rendered autocomplete measured by the demo's browser
 * test (test/browser/demo.browser.test.ts writes test-results/demo-autocomplete-latency.json;
 * run it first), since that figure needs a real browser.
 *
 * Run: `npm run build && npx vitest run test/browser/demo.browser.test.ts && node dist/bench/connector-bundle.js`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { markdownTable } from '../src/cli/report/markdown-table.js';
import { findRepoRoot, updateBenchmarksMd, writeResult } from './lib/report.js';

const SCENARIO = 'connector-bundle';

interface Size {
  readonly name: string;
  readonly minifiedBytes: number;
  readonly gzippedBytes: number;
}

async function bundled(root: string, name: string, entry: string): Promise<Size> {
  const out = await build({
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'error',
  });
  const code = out.outputFiles[0].contents;
  return { name, minifiedBytes: code.byteLength, gzippedBytes: gzipSync(code, { level: 9 }).byteLength };
}

async function main(): Promise<void> {
  const root = findRepoRoot();
  const sizes = [
    await bundled(root, 'threadsearch/connector (ThreadsearchConnector + ProxyConnector)', "export * from 'threadsearch/connector';"),
    await bundled(root, 'threadsearch/connector, ThreadsearchConnector only', "export { ThreadsearchConnector } from 'threadsearch/connector';"),
    await bundled(root, '@elastic/search-ui-elasticsearch-connector 1.24.2 (default export)', "export { default } from '@elastic/search-ui-elasticsearch-connector';"),
  ];
  const shipped = join(root, 'dist/connector/threadsearch-connector.js');
  const shippedBytes = statSync(shipped).size;
  const latencyFile = join(root, 'test-results/demo-autocomplete-latency.json');
  const latency = existsSync(latencyFile) ? { measuredAt: statSync(latencyFile).mtime.toISOString(), ...JSON.parse(readFileSync(latencyFile, 'utf8')) } : null;

  for (const s of sizes) console.log(`${s.name}: ${s.minifiedBytes} B minified, ${s.gzippedBytes} B gzipped`);
  // No otherCores: sizes are exact, and the latency comes from the browser test's own run.
  writeResult(SCENARIO, { sizes, shippedBundleBytes: shippedBytes, autocompleteLatency: latency });

  const elastic = sizes[2];
  const table = markdownTable(
    ['bundle', 'minified bytes', 'gzipped bytes', 'gzipped ÷ Elastic\'s'],
    sizes.map((s) => [s.name, s.minifiedBytes, s.gzippedBytes, s.gzippedBytes / elastic.gzippedBytes]),
  );
  const latencyTable = latency
    ? `\n\nKeystroke → rendered autocomplete in Chromium (demo page, ${latency.direct.keystrokes} keystrokes each, SearchBox debounce ${latency.debounce_ms} ms included, measured ${latency.measuredAt.slice(0, 16).replace('T', ' ')} UTC; reported, not asserted; the 2-core machine was shared with other builds and tests, so treat it as an upper bound):\n\n${markdownTable(
        ['page talks to', 'p50 ms', 'p90 ms'],
        [
          ['the search server directly (read-only key, CORS; 2 requests per keystroke)', latency.direct.p50_ms, latency.direct.p90_ms],
          ['the demo proxy (no key in the browser; 1 request, 2 behind it)', latency.proxy.p50_ms, latency.proxy.p90_ms],
        ],
      )}`
    : '\n\n(No keystroke latency: run test/browser/demo.browser.test.ts first.)';
  updateBenchmarksMd(
    SCENARIO,
    table + latencyTable,
    `Browser weight of the Search UI connector: each bundled alone with esbuild (ESM, platform browser, minified, all its imports included) and gzipped at level 9. The shipped \`dist/connector/threadsearch-connector.js\` is ${shippedBytes} bytes. Elastic's connector includes \`@elastic/search-ui\`'s code it imports. Run: \`npm run build && npx vitest run test/browser/demo.browser.test.ts && node dist/bench/connector-bundle.js\`.`,
  );
}

await main();
