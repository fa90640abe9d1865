// Browser bundles, built after tsc by `npm run build`:
// - dist/connector/threadsearch-connector.js: the `threadsearch/connector` entry point, one ESM
//   file for browsers and Node ≥ 20. platform "browser" makes any Node built-in a build error.
// - dist/demo/page/app.js (+ app.css): the demo search page (React Search UI + the connector).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What both bundles share: one minified ESM file for browsers, with a source map. */
const browser = { absWorkingDir: root, bundle: true, format: 'esm', platform: 'browser', target: ['es2022'], minify: true, sourcemap: true, logLevel: 'warning' };

await build({ ...browser, entryPoints: ['src/connector/index.ts'], outfile: 'dist/connector/threadsearch-connector.js', legalComments: 'none' });

await build({
  ...browser,
  entryPoints: ['demo/page/app.tsx'],
  outfile: 'dist/demo/page/app.js',
  jsx: 'automatic',
  define: { 'process.env.NODE_ENV': '"production"' },
});
