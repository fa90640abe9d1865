/**
 * Scenario: benign wildcard, regexp and case-insensitive queries expanded over a term dictionary,
 * the automaton engine (common/pattern + index/segment/automaton-terms.ts: a DFA intersected with
 * the sorted dictionary over UTF-8 bytes) against the engine it replaced (each term decoded to a
 * string and tested with a JS RegExp translated from the pattern). Both run on the same segment in
 * this thread, interleaved per round; each case checks that both find the same terms. Compile
 * time is shown apart: the DFA from scratch (uncached) and the RegExp.
 *
 *   npm run build && node dist/bench/pattern-engine.js [--terms 200000] [--rounds 15]
 */
import { benchArgs, numberOption } from './lib/args.js';
import { parseRegexp, parseWildcard, toDfa, type Dfa } from '../src/common/pattern/index.js';
import { forEachAcceptedTerm, openSegment, parseRootMapping, SegmentBuilder, termAt, writeSegment, type Segment, type SegmentField } from '../src/index/index.js';
import { generateVocabulary } from '../src/cli/corpus/corpus.js';
import { startCpuProbe } from '../src/cli/report/machine.js';
import { formatNumber, markdownTable, updateBenchmarksMd, writeResult } from './lib/report.js';

const USAGE = 'node dist/bench/pattern-engine.js [--terms 200000] [--rounds 15]';
const { values } = benchArgs(USAGE, { options: { terms: { type: 'string' }, rounds: { type: 'string' } } });
const TERMS = numberOption(USAGE, values.terms, 'terms', 200_000);
const ROUNDS = numberOption(USAGE, values.rounds, 'rounds', 15);

/** The previous engine's translations (search/plan/term-level.ts before the automaton engine). */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
function previousWildcard(pattern: string): string {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) out += escapeRegExp(pattern[++i]);
    else if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else out += escapeRegExp(c);
  }
  return out + '$';
}

interface Case {
  readonly name: string;
  readonly dfa: () => Dfa;
  readonly regExp: () => RegExp;
}

const wildcard = (p: string): Case => ({ name: `wildcard \`${p}\``, dfa: () => toDfa(parseWildcard(p)), regExp: () => new RegExp(previousWildcard(p), 'u') });
const regexp = (p: string): Case => ({ name: `regexp \`${p}\``, dfa: () => toDfa(parseRegexp(p)), regExp: () => new RegExp(`^(?:${p})$`, 'u') });
const insensitive = (term: string): Case => ({
  name: `term \`${term}\`, case_insensitive`,
  dfa: () => toDfa(parseWildcard(term, true)),
  regExp: () => new RegExp(`^${escapeRegExp(term)}$`, 'iu'),
});

const vocabulary = generateVocabulary(TERMS, 0x9a77);
const pick = (i: number) => vocabulary[i];
const CASES: Case[] = [
  wildcard(`${pick(3).slice(0, 2)}*`),
  wildcard(`${pick(10).slice(0, 3)}*`),
  wildcard(`*${pick(5).slice(-3)}`),
  wildcard(`${pick(7)[0]}?${pick(7)[2] ?? 'a'}*`),
  wildcard(`*${pick(11).slice(1, 3)}*`),
  regexp(`${pick(2).slice(0, 2)}.*`),
  regexp(`[a-d].*${pick(4).slice(-2)}`),
  regexp(`(${pick(20).slice(0, 3)}|${pick(21).slice(0, 3)})[a-z]{2,5}`),
  regexp(`.*${pick(8).slice(1, 3)}.*`),
  insensitive(pick(100).toUpperCase()),
];

function buildSegment(): Segment {
  const mapping = parseRootMapping({ properties: { k: { type: 'keyword' } } });
  const b = new SegmentBuilder(mapping, { totalFieldsLimit: 1000, depthLimit: 20, ignoreDynamicBeyondLimit: false });
  vocabulary.forEach((k, i) => b.add({ id: String(i), source: JSON.stringify({ k }), seqNo: i, version: 1, indexOrder: i }));
  return openSegment('bench', writeSegment(b.finish()));
}

function automatonExpansion(field: SegmentField, dfa: Dfa): number {
  let n = 0;
  forEachAcceptedTerm(field, dfa, () => false, (from, to) => {
    n += to - from;
  });
  return n;
}

function regExpExpansion(segment: Segment, field: SegmentField, re: RegExp): number {
  let n = 0;
  for (let t = 0; t < field.info.termCount; t++) if (re.test(termAt(segment, field, t))) n++;
  return n;
}

function time(f: () => number): { ms: number; n: number } {
  const start = performance.now();
  const n = f();
  return { ms: performance.now() - start, n };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const segment = buildSegment();
const field = segment.fields.get('k')!;
console.log(`${field.info.termCount} terms; ${CASES.length} cases × ${ROUNDS} rounds`);
const probe = startCpuProbe();
const rows = CASES.map((c) => {
  const dfa = c.dfa();
  const re = c.regExp();
  const auto: number[] = [];
  const prev: number[] = [];
  const compile: number[] = [];
  let terms = -1;
  for (let r = 0; r < ROUNDS + 2; r++) {
    const a = time(() => automatonExpansion(field, dfa));
    const p = time(() => regExpExpansion(segment, field, re));
    if (a.n !== p.n) throw new Error(`${c.name}: automaton found ${a.n} terms, RegExp ${p.n}`);
    terms = a.n;
    const k = time(() => c.dfa().stateCount);
    if (r >= 2) {
      auto.push(a.ms);
      prev.push(p.ms);
      compile.push(k.ms);
    }
  }
  const row = { case: c.name, terms, automatonMs: median(auto), regExpMs: median(prev), compileMs: median(compile), states: dfa.stateCount };
  console.log(`${row.case}: ${terms} terms, automaton ${row.automatonMs.toFixed(3)} ms, RegExp ${row.regExpMs.toFixed(3)} ms, ratio ${(row.automatonMs / row.regExpMs).toFixed(2)}`);
  return row;
});
const cpu = probe.stop();

const geo = Math.exp(rows.reduce((s, r) => s + Math.log(r.automatonMs / r.regExpMs), 0) / rows.length);
writeResult('pattern-engine', { terms: field.info.termCount, rounds: ROUNDS, rows, geometricMeanRatio: geo, otherCores: cpu.otherCores });
updateBenchmarksMd(
  'pattern-engine',
  markdownTable(
    ['case', 'terms matched', 'automaton ms', 'previous (JS RegExp per term) ms', 'automaton / previous', 'DFA compile ms', 'DFA states'],
    rows.map((r) => [r.case, r.terms, formatNumber(r.automatonMs), formatNumber(r.regExpMs), formatNumber(r.automatonMs / r.regExpMs, 2), formatNumber(r.compileMs), r.states]),
  ),
  `Benign wildcard, regexp and case-insensitive term queries expanded over a ${formatNumber(field.info.termCount)}-term keyword dictionary (the corpus vocabulary, one segment, this thread): the automaton engine (a DFA intersected with the sorted dictionary over UTF-8 bytes, resuming shared prefixes and skipping dead ones) against the engine it replaced (each term decoded and tested with a backtracking JS RegExp). Medians of ${ROUNDS} interleaved rounds; both find the same terms in every case. Geometric mean of the ratios: **${formatNumber(geo, 2)}** (below 1: the automaton is faster). DFA compile is from scratch (the server caches compiled patterns). otherCores ${formatNumber(cpu.otherCores, 2)}${cpu.otherCores > 1 ? ' (a shared, loaded machine: absolute times are inflated; the ratios, interleaved in one run, are what to read)' : ''}. Run: \`node dist/bench/pattern-engine.js\`.`,
);
