/**
 * Where benchmark results go: `bench/results/<scenario>.json` (every figure, machine-readable, so
 * two runs compare directly) and one `## <scenario>` section of BENCHMARKS.md (the human summary).
 * A scenario rewrites only its own section, so scenarios can be re-run one at a time.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findRepoRoot } from '../../src/cli/paths.js';
import { machineInfo } from '../../src/cli/report/machine.js';

export { findRepoRoot };
export { markdownTable, formatNumber } from '../../src/cli/report/markdown-table.js';
export type { Align, Cell } from '../../src/cli/report/markdown-table.js';

export interface ReportOptions {
  /** Repository root; defaults to the nearest ancestor whose package.json is "threadsearch". */
  rootDir?: string;
}

function checkScenario(scenario: string): void {
  // The name becomes a file name and a heading: keep it to a safe, single path segment.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(scenario)) throw new Error(`report: bad scenario name ${JSON.stringify(scenario)}`);
}

/** Writes via a temporary file and rename, so an interrupted run never leaves half a file. */
function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = path.endsWith('.json') ? `${path.slice(0, -5)}.tmp.json` : `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The largest `otherCores` anywhere in the result (top level or inside cases): the run's worst noise. */
function worstOtherCores(value: unknown, depth = 0): number | null {
  if (depth > 4 || value === null || typeof value !== 'object') return null;
  let worst: number | null = null;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const found = key === 'otherCores' && typeof v === 'number' ? v : worstOtherCores(v, depth + 1);
    if (found !== null && !Number.isNaN(found) && (worst === null || found > worst)) worst = found;
  }
  return worst;
}

/**
 * Writes bench/results/<scenario>.json: the result plus date, machine and the run's worst
 * otherCores. Returns the file's path.
 */
export function writeResult(scenario: string, result: object, options: ReportOptions = {}): string {
  checkScenario(scenario);
  const root = options.rootDir ?? findRepoRoot();
  const m = machineInfo();
  const otherCores = worstOtherCores(result);
  if (otherCores === null) console.warn(`report: ${scenario} result has no otherCores; noise cannot be judged`);
  const doc = {
    scenario,
    date: new Date().toISOString(),
    node: m.node,
    cpuModel: m.cpuModel,
    cpus: m.cpus,
    totalMemGB: m.totalMemGB,
    platform: m.platform,
    kernel: m.kernel,
    otherCores,
    result,
  };
  const path = join(root, 'bench', 'results', `${scenario}.json`);
  writeAtomically(path, JSON.stringify(doc, null, 2) + '\n');
  return path;
}

export const BENCHMARKS_MD_HEADER = `# Benchmarks

Every section below is written by one scenario in \`bench/\` (one file per scenario) and is replaced
whole each time that scenario runs; the full figures are in \`bench/results/<scenario>.json\`.

**Running.** \`npm run build\`, then \`node dist/bench/<scenario>.js\` (or \`npm run bench\` for all).
Corpora are deterministic (\`bench/lib/corpus.ts\`, performance.md §2), so runs on the same machine
compare directly.

**Reading the figures.**
- Latencies are per query, measured inside the process, in ms; p50/p90/p99 are nearest-rank. QPS is
  one thread unless the section says otherwise.
- Ratios are *measured ÷ reference*: "× ref-taat" compares with the exact-BM25 typed-array baseline
  (\`bench/lib/ref-taat.ts\`) on the same corpus and machine (below 1 is faster); "ratio to limit"
  follows performance.md §8 (E = P̄ · t_post / T̄; 1 = at the memory/scatter floor).
- recall@10 is the overlap of an engine's top-10 with exact BM25 (k1 1.2, b 0.75) from ref-taat.
- otherCores is the CPU other processes used during the run. Treat a figure as noise and re-run
  when otherCores > 0.2 (2-thread runs) or > 1 (single-thread runs).
`;

function isFence(line: string): boolean {
  return /^\s*(```|~~~)/.test(line);
}

/**
 * Replaces the section `## <scenario>` of BENCHMARKS.md (from its heading to the next `#`/`##`
 * heading outside a code fence) with the table and notes, or appends it; creates the file with
 * BENCHMARKS_MD_HEADER when absent. Everything else in the file is left byte for byte.
 */
export function updateBenchmarksMd(scenario: string, markdownTable: string, notes?: string, options: ReportOptions = {}): string {
  checkScenario(scenario);
  const root = options.rootDir ?? findRepoRoot();
  const path = join(root, 'BENCHMARKS.md');
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : BENCHMARKS_MD_HEADER;
  const m = machineInfo();
  const stamp = `_Last run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · Node ${m.node} · ${m.cpus} × ${m.cpuModel}_`;
  const body = [`## ${scenario}`, '', ...(notes ? [notes.trim(), ''] : []), markdownTable.trim(), '', stamp, ''];

  const lines = existing.split('\n');
  let start = -1;
  let end = lines.length;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    if (isFence(lines[i])) inFence = !inFence;
    if (inFence) continue;
    if (start < 0) {
      if (lines[i].trimEnd() === `## ${scenario}`) start = i;
    } else if (/^#{1,2} /.test(lines[i])) {
      end = i;
      break;
    }
  }
  let out: string[];
  if (start >= 0) {
    out = [...lines.slice(0, start), ...body, ...lines.slice(end)];
  } else {
    // Append after exactly one blank line, however the file ended.
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    out = [...lines, '', ...body];
  }
  let text = out.join('\n');
  if (!text.endsWith('\n')) text += '\n';
  writeAtomically(path, text);
  return path;
}
