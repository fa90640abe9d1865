/**
 * `threadsearch bench`, `capacity` and `eval` as a user runs them (the compiled command in a child
 * process), against a server started for this file, with small counts: each writes a report folder
 * with charts; bad input fails with one clear line, a non-zero exit and no report folder.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThreadsearch, type ServerProcess } from '../../src/cli/server-process.js';
import { call, cli, closedPort, SUPERUSER_KEY, tempFiles } from './cli-harness.js';

let server: ServerProcess;
let dir: string;
const key = ['--api-key', SUPERUSER_KEY];
const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa'];

beforeAll(async () => {
  server = await startThreadsearch(['--threads', '1'], { apiKey: SUPERUSER_KEY });
  const docs = Array.from({ length: 60 }, (_, i) => JSON.stringify({ _id: String(i), title: `${words[i % 8]} ${words[(i * 3) % 8]} ${words[(i * 5) % 8]}`, tag: words[i % 3] })).join('\n');
  dir = tempFiles({
    'docs.jsonl': docs + '\n',
    'queries.txt': 'alpha beta\ngamma\n\n',
    'beir/corpus.jsonl': ['{"_id":"d1","title":"","text":"apple banana"}', '{"_id":"d2","title":"","text":"apple"}', '{"_id":"d3","title":"","text":"cherry"}'].join('\n') + '\n',
    'beir/queries.jsonl': ['{"_id":"q1","text":"banana"}', '{"_id":"q2","text":"cherry"}', '{"_id":"q3","text":"apple"}', '{"_id":"q4","text":"unjudged"}'].join('\n') + '\n',
    'beir/qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t2\nq3\td1\t1\n',
  });
  const loaded = await cli(['load', join(dir, 'docs.jsonl'), '--index', 'docs', '--url', server.url, ...key]);
  expect(loaded.code).toBe(0);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Each case spawns the command (and capacity its servers): generous bounds for a loaded machine. */
const SLOW = 300_000;
const report = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));

describe('threadsearch bench', () => {
  it('closed loop: measures the scenario and the hello-world ceiling in one run, and writes a report with charts', async () => {
    const out = join(dir, 'bench-closed');
    const r = await cli(['bench', 'match', '--index', 'docs', '--url', server.url, ...key, '--amount', '40', '--connections', '1,2', '--warmup', '0', '--queries', join(dir, 'queries.txt'), '--out', out]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const json = report(out);
    expect(json.results.runs.map((x: any) => [x.target, x.mode, x.connections])).toEqual([['threadsearch', 'closed', 1], ['threadsearch', 'closed', 2]]);
    expect(json.results.client_ceiling.map((x: any) => [x.target, x.connections])).toEqual([['fastify hello-world', 1], ['fastify hello-world', 2]]);
    for (const run of [...json.results.runs, ...json.results.client_ceiling]) {
      expect(run.statuses['200']).toBeGreaterThanOrEqual(40);
      expect(run.throughput_rps).toBeGreaterThan(0);
    }
    expect(json.results.verdict).toMatch(/client was the limit|server, not the client, was the limit/);
    // _nodes/stats: sampled when the server has it, else named as missing.
    const u = json.results.utilisation;
    if (u.available) expect(u.samples.length).toBeGreaterThanOrEqual(2);
    else expect(u.reason).toMatch(/^server has no GET \/_nodes\/stats/);
    expect(readdirSync(out).sort()).toEqual(['latency-vs-connections.svg', 'report.json', 'report.md', 'throughput-vs-connections.svg']);
    expect(readFileSync(join(out, 'throughput-vs-connections.svg'), 'utf8')).toContain('>fastify hello-world</text>');
    expect(r.stdout).toContain('| threadsearch | closed | 1 |');
  }, SLOW);

  it('open loop at fixed rates reports latency against the offered load', async () => {
    const out = join(dir, 'bench-open');
    const r = await cli(['bench', 'multi_match', '--index', 'docs', '--url', server.url, ...key, '--amount', '20', '--rate', '20,40', '--warmup', '0', '--no-ceiling', '--out', out]);
    expect(r.code).toBe(0);
    const json = report(out);
    expect(json.results.runs.map((x: any) => [x.mode, x.offered_rps, x.statuses['200']])).toEqual([['open', 20, 20], ['open', 40, 20]]);
    expect(json.results.client_ceiling).toEqual([]);
    expect(readFileSync(join(out, 'latency-vs-offered-load.svg'), 'utf8')).toContain('>offered load (requests/s)</text>');
  }, SLOW);

  it('mixed and faceted run over the index (re-indexed documents keep its count)', async () => {
    const mixed = await cli(['bench', 'mixed', '--index', 'docs', '--url', server.url, ...key, '--amount', '30', '--mix', '2:1', '--bulk-size', '5', '--warmup', '0', '--no-ceiling', '--out', join(dir, 'bench-mixed')]);
    expect(mixed.code).toBe(0);
    expect(report(join(dir, 'bench-mixed')).results.runs[0].statuses['200']).toBeGreaterThanOrEqual(30);
    await call(server.url, 'POST', '/docs/_refresh');
    expect((await call(server.url, 'GET', '/docs/_count')).body.count).toBe(60);
    const faceted = await cli(['bench', 'faceted', '--index', 'docs', '--url', server.url, ...key, '--amount', '10', '--warmup', '0', '--no-ceiling', '--out', join(dir, 'bench-faceted')]);
    expect(faceted.code).toBe(0);
  }, SLOW);

  it('bad input: unknown scenario, missing index, a scenario the index cannot serve, unreachable URL — no report folder', async () => {
    const out = join(dir, 'bench-bad');
    const unknown = await cli(['bench', 'fastest', '--index', 'docs', '--url', server.url, ...key, '--out', out]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toContain('unknown scenario [fastest]; one of match, multi_match, faceted');
    const missing = await cli(['bench', 'match', '--index', 'nothere', '--url', server.url, ...key, '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('the server has no index [nothere]');
    const sparse = await cli(['bench', 'text_expansion', '--index', 'docs', '--url', server.url, ...key, '--out', out]);
    expect(sparse.code).toBe(2);
    expect(sparse.stderr).toContain('needs a sparse_vector field in index [docs]');
    const down = await cli(['bench', 'match', '--index', 'docs', '--url', `http://127.0.0.1:${await closedPort()}`, '--out', out]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/cannot reach .*ECONNREFUSED/);
    const rate = await cli(['bench', 'match', '--index', 'docs', '--rate', '10,x', '--out', out]);
    expect(rate.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  }, SLOW);
});

describe('threadsearch capacity', () => {
  it('sweeps threads × shards on this machine, picks a configuration and labels the extrapolation', async () => {
    const out = join(dir, 'capacity');
    const r = await cli(['capacity', '--docs', '200', '--data', join(dir, 'docs.jsonl'), '--qps', '5', '--p99', '5000', '--threads', '1', '--shards', '1,2', '--duration', '1', '--connections', '2', '--out', out]);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('**Smallest configuration that meets 5 searches/s');
    const json = report(out);
    expect(json.results.points.map((p: any) => [p.threads, p.shards, p.docs, p.offered.map((o: any) => o.offered_rps)])).toEqual([[1, 1, 60, [2.5, 5, 7.5]], [1, 2, 60, [2.5, 5, 7.5]]]);
    expect(json.results.chosen).toMatchObject({ threads: 1, shards: 1 });
    expect(json.results.extrapolation.label).toMatch(/^ESTIMATE/);
    expect(json.results.extrapolation.points.map((p: any) => p.docs)).toEqual([60, 60, 6]);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('the first 60 documents of');
    expect(md).toContain('## Extrapolation — ESTIMATE');
    expect(readdirSync(out).filter((f) => f.endsWith('.svg')).sort()).toEqual(['latency-vs-offered-load.svg', 'throughput-vs-threads-shards.svg']);
  }, SLOW);

  it('bad input: a missing data file or a bad --mix stops before any server starts', async () => {
    const out = join(dir, 'capacity-bad');
    const missing = await cli(['capacity', '--qps', '5', '--data', join(dir, 'nope.jsonl'), '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or folder');
    const mix = await cli(['capacity', '--qps', '5', '--mix', 'lots', '--out', out]);
    expect(mix.code).toBe(2);
    expect(mix.stderr).toContain('--mix must be reads:writes such as 4:1');
    const qps = await cli(['capacity', '--out', out]);
    expect(qps.code).toBe(2);
    expect(qps.stderr).toContain("required option '--qps <n>' not specified");
    const simulate = await cli(['capacity', '--qps', '5', '--ingest-docs-per-s', '1', '--simulate', 'gpt-9', '--out', out]);
    expect(simulate.code).toBe(2);
    expect(simulate.stderr).toContain("option '--simulate <graph>' argument 'gpt-9' is invalid. Allowed choices are bert-base.");
    expect(existsSync(out)).toBe(false);
  }, SLOW);
});

describe('threadsearch eval', () => {
  it('scores a BEIR folder with the server\'s _rank_eval, or says the server has none', async () => {
    const out = join(dir, 'eval');
    const probe = await call(server.url, 'POST', '/_rank_eval', { requests: [], metric: { mean_reciprocal_rank: { k: 10 } } });
    const hasRankEval = !(probe.status === 404 || probe.status === 405 || /no handler found/.test(JSON.stringify(probe.body)));
    const r = await cli(['eval', join(dir, 'beir'), '--index', 'tiny-beir', '--url', server.url, ...key, '--out', out]);
    if (!hasRankEval) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^threadsearch eval: server has no _rank_eval \(/);
      expect(existsSync(out)).toBe(false);
      expect((await call(server.url, 'GET', '/tiny-beir')).status).toBe(404);
      return;
    }
    expect(r.code).toBe(0);
    // q1 banana → d1 first; q2 cherry → d3 first; q3 apple → d2 (shorter) first, the relevant d1 second.
    const m = report(out).results.metrics;
    expect(m['MRR@10'].score).toBeCloseTo((1 + 1 + 0.5) / 3, 6);
    expect(m['NDCG@10'].score).toBeCloseTo((1 + 1 + 1 / Math.log2(3)) / 3, 6);
    expect(m['Recall@100'].score).toBeCloseTo(1, 6);
  }, SLOW);

  it('sparse: a deployment already started is used as it is; an index loaded for bm25 is refused rather than scored 0', async () => {
    await call(server.url, 'PUT', '/_ml/trained_models/.sparse_model_2', { input: { field_names: ['text_field'] } });
    expect((await call(server.url, 'POST', '/_ml/trained_models/.sparse_model_2/deployment/_start?wait_for=started')).status).toBe(200);
    const out = join(dir, 'eval-sparse');
    const r = await cli(['eval', join(dir, 'beir'), '--mode', 'sparse', '--index', 'tiny-beir-sparse', '--url', server.url, ...key, '--out', out]);
    expect(r.stderr).not.toMatch(/existing deployment/);
    expect(r.code).toBe(0);
    expect(report(out).results.metrics['Recall@100'].score).toBeGreaterThan(0);

    expect((await cli(['eval', join(dir, 'beir'), '--index', 'tiny-beir-lexical', '--url', server.url, ...key, '--out', join(dir, 'eval-lexical')])).code).toBe(0);
    const reused = await cli(['eval', join(dir, 'beir'), '--mode', 'hybrid', '--index', 'tiny-beir-lexical', '--url', server.url, ...key, '--out', join(dir, 'eval-reused')]);
    expect(reused.code).toBe(2);
    expect(reused.stderr).toContain('index [tiny-beir-lexical] has the corpus but no [text_embedding] sparse_vector field (it was loaded for bm25), so --mode hybrid would score 0');
    expect(existsSync(join(dir, 'eval-reused'))).toBe(false);
  }, SLOW);

  it('bad input: not a BEIR folder, unknown mode', async () => {
    const notBeir = await cli(['eval', dir, '--url', server.url, ...key, '--out', join(dir, 'eval-bad')]);
    expect(notBeir.code).toBe(2);
    expect(notBeir.stderr).toContain('is not a BEIR dataset folder: it has no corpus.jsonl');
    const mode = await cli(['eval', join(dir, 'beir'), '--mode', 'dense', '--url', server.url, ...key]);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('--mode must be one of bm25, sparse, hybrid');
  }, SLOW);
});

describe('threadsearch', () => {
  it('--help lists every command and the exit codes; each command has its own --help', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['start', 'load', 'bench', 'capacity', 'eval', 'export']) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(r.stdout).toContain('Exit codes: 0 done');
    const start = await cli(['start', '--help']);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain('--threads <n>');
    const bench = await cli(['bench', '--help']);
    expect(bench.stdout).toContain('--rate <list>');
    const exp = await cli(['export', '--help']);
    expect(exp.stdout).toContain('--model-map <from=to...>');
    expect(exp.stdout).toContain('threadsearch export --to https://localhost:9200 --to-user elastic:');
  }, SLOW);
});
