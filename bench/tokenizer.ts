/**
 * Throughput of the standard tokenizer (the scanner every `text` field goes through at index and at
 * query time, in the HTTP thread for queries and in the build workers at refresh), in MB/s of UTF-8
 * input, on normal text and on hostile shapes: one long word, a long run no rule matches
 * (underscores, ZWJs), and a long dotted token. Issue 15: one 2 MB word stalled the server 11 s.
 *
 * `--baseline PATH` loads another build of `standard-tokenizer.js` (e.g. main's `dist/`, copied out
 * before the change) and times it in the same run, rounds interleaved, so before/after share the
 * machine's conditions. Long-token inputs are 1 MiB (256 KiB for the baseline's quadratic cases,
 * scaled in the table as MB/s, which is what a quadratic scanner makes look better than it is).
 *
 *   npm run build && node dist/bench/tokenizer.js [--baseline PATH] [--rounds N]
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchArgs, numberOption } from './lib/args.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { loadBeir } from './lib/relevance.js';
import { findRepoRoot, formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';
import { nextStandardToken } from '../src/analysis/index.js';

type Scan = (text: string, from: number, out: Int32Array) => boolean;

const USAGE = 'node dist/bench/tokenizer.js [--baseline PATH] [--rounds N]';
const { values } = benchArgs(USAGE, { options: { baseline: { type: 'string' }, rounds: { type: 'string' }, dir: { type: 'string' } } });
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 10);
const DIR = values.dir ?? process.env.THREADSEARCH_SCIFACT ?? resolve(findRepoRoot(), '../shared/data/beir/scifact');

/** English prose: SciFact abstracts when present, else a fixed paragraph repeated. */
function normalText(): string {
  if (existsSync(resolve(DIR, 'corpus.jsonl'))) {
    return [...loadBeir(DIR).corpus.values()].map((d) => `${d.title}\n${d.text}`).join('\n').slice(0, 4 << 20);
  }
  return 'The quick brown fox, e.g. a 3.14 kg animal, jumps over the lazy dog\'s 2nd kennel. '.repeat(50_000);
}

const MiB = 1 << 20;
const inputs: Array<{ name: string; text: string; small: string }> = [
  { name: 'normal text (SciFact abstracts)', text: normalText(), small: '' },
  { name: 'one long word (a…)', text: 'a'.repeat(MiB), small: 'a'.repeat(MiB / 4) },
  { name: 'one long dotted token (a.a.…)', text: 'a.'.repeat(MiB / 2), small: '' },
  { name: 'unmatched run (_…)', text: '_'.repeat(MiB), small: '_'.repeat(MiB / 4) },
  { name: 'unmatched run (ZWJ…)', text: '\u200d'.repeat(MiB / 3), small: '\u200d'.repeat(MiB / 12) },
];
for (const input of inputs) if (input.small === '') input.small = input.text;

function scanAll(scan: Scan, text: string): number {
  const out = new Int32Array(3);
  let from = 0;
  let tokens = 0;
  while (scan(text, from, out)) {
    from = out[1];
    tokens++;
  }
  return tokens;
}

const impls: Array<{ name: string; scan: Scan; quadratic: boolean }> = [
  { name: 'now', scan: (t, f, o) => nextStandardToken(t, f, o), quadratic: false },
];
if (values.baseline) {
  const mod = (await import(pathToFileURL(resolve(values.baseline)).href)) as { nextStandardToken: Scan };
  impls.push({ name: 'baseline', scan: mod.nextStandardToken, quadratic: true });
}

const best = impls.map(() => inputs.map(() => 0));
const tokens = impls.map(() => inputs.map(() => 0));
const probe = startCpuProbe();
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < impls.length; k++) {
    const impl = impls[(k + round) % impls.length];
    const ii = impls.indexOf(impl);
    inputs.forEach((input, j) => {
      const text = impl.quadratic ? input.small : input.text;
      const t0 = performance.now();
      tokens[ii][j] = scanAll(impl.scan, text);
      const mbPerS = Buffer.byteLength(text) / 1e6 / ((performance.now() - t0) / 1000);
      best[ii][j] = Math.max(best[ii][j], mbPerS);
    });
  }
}
const cpu = probe.stop();

const rows = inputs.map((input, j) => [
  input.name,
  formatNumber(Buffer.byteLength(input.text) / 1e6),
  String(tokens[0][j]),
  formatNumber(best[0][j]),
  ...(impls.length > 1 ? [formatNumber(best[1][j]), `${formatNumber(Buffer.byteLength(input.small) / 1e6)} MB`] : []),
]);
const header = ['input', 'MB (UTF-8)', 'tokens', 'MB/s now', ...(impls.length > 1 ? ['MB/s before', 'before measured on'] : [])];
const table = markdownTable(header, rows);
const notes = `Standard tokenizer throughput, one thread, best of ${ROUNDS} rounds (${impls.length > 1 ? 'rounds interleaved with the previous scanner, loaded from --baseline' : 'no baseline'}). The previous scanner was quadratic on long tokens, so it is timed on a quarter of the input on the long-run cases (its MB/s would be lower still on the full size). otherCores ${formatNumber(cpu.otherCores)}.`;
writeResult('tokenizer', { rounds: ROUNDS, otherCores: cpu.otherCores, inputs: inputs.map((input, j) => ({ name: input.name, bytes: Buffer.byteLength(input.text), tokens: tokens[0][j], mbPerS: best[0][j], baselineMbPerS: impls.length > 1 ? best[1][j] : null, baselineBytes: impls.length > 1 ? Buffer.byteLength(input.small) : null })) });
updateBenchmarksMd('tokenizer', table, notes);
console.log(notes);
console.log(table);
