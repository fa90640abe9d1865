// node bench/tools/heap-alloc/drive.mjs <treeRoot> <docs> <outPrefix> [semiSpaceMB=32] [samplingInterval=4096, 0 = GC figures only]; env EXTRA="<node flags>", DUMP=<file for the server's output>
import { pathToFileURL } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
const [root, docsArg, outPrefix, semi = '32', interval = '4096'] = process.argv.slice(2);
const D = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { generateBm25Corpus } = await D('src/cli/corpus/corpus.js');
const { startProcess } = await D('src/cli/server-process.js');
const { bulkBodies, bulkLoad } = await D('bench/lib/server-process.js');
const DOCS = Number(docsArg);
const corpus = generateBm25Corpus({ docs: DOCS, queries: 1 }).docs;
const bodies = bulkBodies('bulk', corpus, 5000);
const warm = bulkBodies('warmup', corpus, 5000);
process.env.PROBE_OUT = outPrefix;
process.env.PROBE_INTERVAL = interval;
const nodeArgs = [`--max-semi-space-size=${semi}`, '--import', new URL('./probe.mjs', import.meta.url).pathname, ...(process.env.EXTRA ?? '').split(' ').filter(Boolean)];
const dump = process.env.DUMP;
const dataDir = mkdtempSync(join(tmpdir(), 'heap-alloc-'));
const server = await startProcess(join(root, 'dist/src/main.js'), ['--port', '0', '--no-security', '--data', dataDir], () => rmSync(dataDir, { recursive: true, force: true }), nodeArgs);
const cpu = (tid) => { const f = readFileSync(`/proc/${server.pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
try {
  const create = (index) => fetch(`${server.url}/${index}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mappings: { properties: { text: { type: 'text' } } } }) });
  await create('warmup');
  await bulkLoad(server.url, warm, 2);
  await fetch(`${server.url}/warmup/_refresh`, { method: 'POST' });
  await new Promise((r) => setTimeout(r, 3000));
  await create('bulk');
  process.kill(server.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 300));
  const c0 = cpu(server.pid);
  const t0 = performance.now();
  await bulkLoad(server.url, bodies, 2);
  const t1 = performance.now();
  const c1 = cpu(server.pid);
  process.kill(server.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 1500));
  console.log(JSON.stringify({ docs: DOCS, loadMs: t1 - t0, mainCpuS: c1 - c0 }));
  if (dump) (await import('node:fs')).writeFileSync(dump, server.output());
} finally {
  await server.stop();
}
