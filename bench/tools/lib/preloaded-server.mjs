// Shared by the ad-hoc heap tools (heap-alloc/live-drive.mjs, thread-cpu/heap-trace.mjs): a server of a
// built tree spawned with a preload module (--import) on thread-cpu/drive.mjs's loaded 200k docs, and
// `_search`/`_msearch` load over the corpus's 2,000 queries.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
const WT = fileURLToPath(new URL('../../../', import.meta.url));
const { default: autocannon } = await import(`${WT}/node_modules/autocannon/autocannon.js`);
const { generateBm25Corpus } = await import(`${WT}/dist/src/cli/corpus/corpus.js`);

/**
 * Spawns `dist`'s server on `data` with `preload` and `nodeArgs`; resolves once it listens. `server.out`
 * is everything it has printed so far (stdout and stderr), kept growing.
 */
export async function startPreloadedServer({ dist, data, preload, nodeArgs = [], env = process.env }) {
  const child = spawn(process.execPath, ['--max-semi-space-size=32', '--import', preload, ...nodeArgs, join(dist, 'src/main.js'), '--port', '0', '--no-security', '--data', data],
    { stdio: ['ignore', 'pipe', 'pipe'], env });
  const server = { child, url: null, out: '' };
  child.stdout.on('data', (d) => { server.out += d; });
  child.stderr.on('data', (d) => { server.out += d; });
  while (server.url === null) {
    await new Promise((r) => setTimeout(r, 200));
    const m = /https?:\/\/[\d.]+:\d+/.exec(server.out) ?? /"port":(\d+)/.exec(server.out);
    if (m) server.url = m[0].startsWith('http') ? m[0] : `http://127.0.0.1:${m[1]}`;
  }
  return server;
}

/** An autocannon run of `mode` ('search' or 'msearch', 10 queries per request) against `url`. */
export function searchLoad(url, mode, connections, duration) {
  const corpus = generateBm25Corpus({ docs: 200000, queries: 2000 });
  let q = 0;
  const searchBody = () => JSON.stringify({ query: { match: { text: corpus.queries[q++ % corpus.queries.length] } }, size: 10 });
  const msearchBody = () => { let o = ''; for (let i = 0; i < 10; i++) o += `{}\n${searchBody()}\n`; return o; };
  return autocannon({ url: `${url}/${mode === 'msearch' ? 'bench/_msearch' : 'bench/_search'}`, connections, duration,
    requests: [{ method: 'POST', headers: { 'content-type': mode === 'msearch' ? 'application/x-ndjson' : 'application/json' }, setupRequest: (r) => ({ ...r, body: mode === 'msearch' ? msearchBody() : searchBody() }) }] });
}
