// Browser bundles, built after tsc by `npm run build`:
// - dist/connector/threadsearch-connector.js: the `threadsearch/connector` entry point, one ESM
//   file for browsers and Node ≥ 20. platform "browser" makes any Node built-in a build error.
// - dist/demo/page/app.js (+ app.css): the demo search page (React Search UI + the connector).
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

await build({
  absWorkingDir: root,
  entryPoints: ['demo/page/app.tsx'],
  outfile: 'dist/demo/page/app.js',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: true,
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
