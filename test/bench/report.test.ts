import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCHMARKS_MD_HEADER, findRepoRoot, formatNumber, markdownTable, updateBenchmarksMd, writeResult } from '../../bench/lib/report.js';

const tmpRoot = () => mkdtempSync(join(tmpdir(), 'bench-report-'));

describe('writeResult', () => {
  it('writes pretty JSON with the date, machine and the worst otherCores of the run', () => {
    const rootDir = tmpRoot();
    const path = writeResult('bm25-peers', { cases: [{ otherCores: 0.1 }, { otherCores: 0.4 }], p50: 1 }, { rootDir });
    expect(path).toBe(join(rootDir, 'bench', 'results', 'bm25-peers.json'));
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('\n  "scenario": "bm25-peers"');
    const doc = JSON.parse(text);
    expect(doc.otherCores).toBe(0.4);
    expect(doc.node).toBe(process.version);
    expect(typeof doc.cpuModel).toBe('string');
    expect(Number.isNaN(Date.parse(doc.date))).toBe(false);
    expect(doc.result.p50).toBe(1);
  });

  it('refuses scenario names that are not a single safe path segment', () => {
    expect(() => writeResult('../x', { otherCores: 0 }, { rootDir: tmpRoot() })).toThrow(/scenario/);
  });

  it('finds the repository root from its own folder', () => {
    expect(JSON.parse(readFileSync(join(findRepoRoot(), 'package.json'), 'utf8')).name).toBe('threadsearch');
  });
});

describe('updateBenchmarksMd', () => {
  it('creates BENCHMARKS.md with the explanatory header when it is absent', () => {
    const rootDir = tmpRoot();
    updateBenchmarksMd('alpha', '| a |\n|---|\n| 1 |', 'Some notes.', { rootDir });
    const text = readFileSync(join(rootDir, 'BENCHMARKS.md'), 'utf8');
    expect(text.startsWith(BENCHMARKS_MD_HEADER)).toBe(true);
    expect(text).toContain('## alpha\n\nSome notes.\n\n| a |\n|---|\n| 1 |\n\n_Last run ');
  });

  it('replaces only its own section and leaves the others byte for byte', () => {
    const rootDir = tmpRoot();
    const path = join(rootDir, 'BENCHMARKS.md');
    const before = '# Benchmarks\n\nintro\n\n## alpha\n\nold alpha\n\n## beta\n\nbeta text\n```\n## not a heading\n```\n\n## gamma\n\ngamma text\n';
    writeFileSync(path, before);
    updateBenchmarksMd('beta', 'NEW TABLE', undefined, { rootDir });
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith('# Benchmarks\n\nintro\n\n## alpha\n\nold alpha\n\n## beta\n\nNEW TABLE\n\n_Last run ')).toBe(true);
    expect(after.endsWith('_\n\n## gamma\n\ngamma text\n')).toBe(true);
    expect(after).not.toContain('beta text');
    expect(after).not.toContain('not a heading');
  });

  it('appends a new section at the end, and a second run replaces it instead of adding another', () => {
    const rootDir = tmpRoot();
    const path = join(rootDir, 'BENCHMARKS.md');
    writeFileSync(path, '# Benchmarks\n\n## alpha\n\nA\n\n\n');
    updateBenchmarksMd('delta', 'T1', undefined, { rootDir });
    updateBenchmarksMd('delta', 'T2', undefined, { rootDir });
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('# Benchmarks\n\n## alpha\n\nA\n\n## delta\n\nT2\n\n_Last run ')).toBe(true);
    expect(text.match(/## delta/g)).toHaveLength(1);
    expect(text.endsWith('_\n')).toBe(true);
  });
});

describe('markdownTable', () => {
  it('right-aligns numeric columns, rounds numbers and escapes pipes', () => {
    const table = markdownTable(['engine', 'p50 ms', 'QPS'], [['ref|taat', 0.067123, 9318.4], ['wink', 7.04, null]]);
    expect(table).toBe(
      ['| engine | p50 ms | QPS |', '|---|---:|---:|', '| ref\\|taat | 0.0671 | 9 318 |', '| wink | 7.04 | – |'].join('\n'),
    );
  });

  it('formats numbers to significant digits with thousands separated by spaces', () => {
    expect(formatNumber(1234567)).toBe('1 234 567');
    expect(formatNumber(0.000123456)).toBe('0.000123');
    expect(formatNumber(12.3456, 4)).toBe('12.35');
    expect(formatNumber(NaN)).toBe('–');
    expect(formatNumber(0)).toBe('0');
  });
});
