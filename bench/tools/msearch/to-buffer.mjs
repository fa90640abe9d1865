// ad-hoc (issue 19, msearch-i19x): JsonPieces.join and toBuffer of a ten-item `_msearch` response of 3 KB pages.
//   node bench/tools/msearch/to-buffer.mjs [dist]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const { JsonPieces } = await import(pathToFileURL(join(process.argv[2] ?? 'dist', 'src/common/json-pieces.js')).href);
const big = new ArrayBuffer(16 * 3000);
const pages = Array.from({ length: 10 }, (_, i) => new Uint8Array(big, (i % 16) * 3000, 3000).fill(65));
const head = '{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":10000,"relation":"gte"},"max_score":12.5,"hits":';
const items = pages.map((p) => JsonPieces.object(head, p, '}}').withLastMember('"status":200'));
const j = JsonPieces.join('{"took":5,"responses":[', items, ']}');
const time = (name, f, n = 50000) => { for (let i = 0; i < 5000; i++) f(); const t = process.cpuUsage(); for (let i = 0; i < n; i++) f(); const d = process.cpuUsage(t); console.log(name, ((d.user + d.system) / n).toFixed(2), 'µs'); };
time('toBuffer', () => j.toBuffer());
time('alloc only', () => Buffer.allocUnsafe(31000));
time('alloc+set', () => { const o = Buffer.allocUnsafe(31000); let at = 0; for (const p of pages) { o.set(p, at); at += 3000; } return o; });
time('join', () => JsonPieces.join('{"took":5,"responses":[', items, ']}'));
