// Browser bundles, built after tsc by `npm run build`:
// - dist/connector/threadsearch-connector.js: the `threadsearch/connector` entry point, one ESM
//   file for browsers and Node ≥ 20. platform "browser" makes any Node built-in a build error.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['src/connector/index.ts'],
  outfile: 'dist/connector/threadsearch-connector.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});
