/**
 * Apache Lucene 8.8 as a side-by-side anchor (issue 19): `../shared/anchors/lucene/run.sh` (next to
 * the repository; README there) indexes plain input files and times top-10 queries in one JVM
 * thread. These helpers write the engine-bm25 and sparse-search corpora in its input formats, run it
 * in the same benchmark run, and read its `RESULT` lines. Without the anchor directory, Debian's
 * liblucene8-java or a JDK the benchmarks skip it and say so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot, formatNumber } from './report.js';
import type { SparseVectors } from './sparse-corpus.js';

export interface LuceneResult {
  readonly mode: string;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly mean_ms: number;
  readonly qps: number;
  readonly recall: string;
  /** Seconds to index, commit and force-merge to one segment (one thread), and the index's size. */
  readonly build_s: number;
  readonly index_mb: number;
  /** The JVM's process CPU seconds over that build (every thread: GC and JIT too), from its log; NaN when absent. */
  readonly build_cpu_s: number;
}

/** The anchor's run.sh, or a reason it cannot run here. */
export function luceneAnchor(): { runSh: string } | { missing: string } {
  const runSh = join(findRepoRoot(), '..', 'shared', 'anchors', 'lucene', 'run.sh');
  if (!existsSync(runSh)) return { missing: `no Lucene anchor at ${runSh}` };
  if (!existsSync('/usr/share/java') || !readdirSync('/usr/share/java').some((f) => /^lucene-core-8.*\.jar$/.test(f))) {
    return { missing: 'liblucene8-java is not installed (apt-get install -y liblucene8-java default-jdk-headless)' };
  }
  if (spawnSync('javac', ['-version']).status !== 0) return { missing: 'no javac (apt-get install -y default-jdk-headless)' };
  return { runSh };
}

/** `data/bm25-docs-N.tsv` (`id<TAB>text`) and `data/bm25-queries-Q.txt` under `home`. */
export function writeBm25Input(home: string, docs: ReadonlyArray<{ id: string; text: string }>, queries: readonly string[]): void {
  mkdirSync(join(home, 'data'), { recursive: true });
  writeFileSync(join(home, 'data', `bm25-docs-${docs.length}.tsv`), docs.map((d) => `${d.id}\t${d.text.replace(/[\t\n]/g, ' ')}\n`).join(''));
  writeFileSync(join(home, 'data', `bm25-queries-${queries.length}.txt`), queries.map((q) => `${q.replace(/\n/g, ' ')}\n`).join(''));
}

/** Little-endian int32 count, then per vector uint16 nnz, nnz × uint16 token id, nnz × float32 weight. */
function sparseFile(v: SparseVectors, count: number): Buffer {
  const nnz = v.offsets[count] - v.offsets[0];
  const buf = Buffer.alloc(4 + count * 2 + nnz * 6);
  let o = buf.writeInt32LE(count, 0);
  for (let i = 0; i < count; i++) {
    const from = v.offsets[i];
    const to = v.offsets[i + 1];
    o = buf.writeUInt16LE(to - from, o);
    for (let j = from; j < to; j++) o = buf.writeUInt16LE(v.tokens[j], o);
    for (let j = from; j < to; j++) o = buf.writeFloatLE(v.weights[j], o);
  }
  return buf;
}

/** `data/sparse-docs-N.bin` and `data/sparse-queries-N-Q.bin` under `home`. */
export function writeSparseInput(home: string, docs: SparseVectors, docCount: number, queries: SparseVectors, queryCount: number): void {
  mkdirSync(join(home, 'data'), { recursive: true });
  writeFileSync(join(home, 'data', `sparse-docs-${docCount}.bin`), sparseFile(docs, docCount));
  writeFileSync(join(home, 'data', `sparse-queries-${docCount}-${queryCount}.bin`), sparseFile(queries, queryCount));
}

/** Runs `run.sh <kind> --docs N --queries Q …` with ANCHOR_HOME=home; the RESULT line of each collector mode. */
export function runLucene(runSh: string, home: string, kind: 'bm25' | 'sparse', args: readonly string[]): LuceneResult[] {
  const res = spawnSync('bash', [runSh, kind, ...args], { env: { ...process.env, ANCHOR_HOME: home }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.status !== 0) throw new Error(`Lucene anchor failed (${res.status}): ${(res.stderr ?? '').slice(-2000)}`);
  const out: LuceneResult[] = [];
  const buildCpu = /"buildCpuS"\s*:\s*([\d.]+)/.exec(res.stderr ?? '');
  for (const line of res.stdout.split('\n')) {
    const m = /^RESULT\s+\S+\s+(\S+)\s.*build=([\d.]+)s index=([\d.]+)MB p50=([\d.]+)ms.*p99=([\d.]+)ms mean=([\d.]+)ms qps=([\d.]+) recall=(\S+)/.exec(line);
    if (m) {
      out.push({
        mode: m[1], build_s: Number(m[2]), index_mb: Number(m[3]), p50_ms: Number(m[4]), p99_ms: Number(m[5]), mean_ms: Number(m[6]), qps: Number(m[7]), recall: m[8],
        build_cpu_s: buildCpu ? Number(buildCpu[1]) : NaN,
      });
    }
  }
  if (out.length === 0) throw new Error(`Lucene anchor printed no RESULT lines:\n${res.stdout.slice(-2000)}`);
  return out;
}

/**
 * The anchor over input `prepare` writes into a temporary home (removed after): each collector
 * mode's result, printed as our rows are, or why it was skipped (printed too). Never throws.
 */
export function runLuceneAnchor(
  skip: boolean, kind: 'bm25' | 'sparse', args: readonly string[], prepare: (home: string) => void, label: (mode: string) => string,
): { results: LuceneResult[]; skipped: string | null } {
  const anchor = skip ? { missing: '--no-lucene' } : luceneAnchor();
  let skipped = 'missing' in anchor ? anchor.missing : null;
  let results: LuceneResult[] = [];
  if ('runSh' in anchor) {
    const home = mkdtempSync(join(tmpdir(), 'threadsearch-lucene-'));
    try {
      prepare(home);
      results = runLucene(anchor.runSh, home, kind, args);
      for (const r of results) {
        console.log(`${label(r.mode)}: p50 ${formatNumber(r.p50_ms)} ms, p99 ${formatNumber(r.p99_ms)} ms, mean ${formatNumber(r.mean_ms)} ms, ${Math.round(r.qps)} q/s, recall@10 ${r.recall}`);
      }
    } catch (e) {
      skipped = (e as Error).message.slice(0, 300);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  if (skipped !== null) console.log(`Lucene anchor skipped: ${skipped}`);
  return { results, skipped };
}
