/**
 * The crash test: a real server process, concurrent `_bulk` writers, SIGKILL at a random moment,
 * restart on the same data directory, and a check of every document against what was
 * acknowledged. Each writer owns its ids and keeps, per id, the last acknowledged state and the
 * state of an operation in flight when the server died (which may or may not have applied: both
 * are correct). Anything else — an acknowledged write missing or changed, a document nobody wrote,
 * a document twice — is a failure. Writers retry their unacknowledged bulk after each restart
 * (same ids), as clients do, so retries are checked for duplicates too.
 *
 * The index refreshes every 200 ms and flushes every 256 kB of translog, so kills land in the
 * middle of group commits, refreshes, merges and flushes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, type ServerProcess } from '../../src/cli/server-process.js';
import { findRepoRoot } from '../../src/cli/paths.js';
import { mulberry32 } from '../../src/common/prng.js';

export interface CrashOptions {
  readonly rounds: number;
  readonly writers: number;
  /** The kill comes this long after the writers start: uniformly in [min, max] ms. */
  readonly killAfterMs: readonly [number, number];
  readonly seed: number;
  /** `index.translog.durability`; `async` (with a long sync interval) is the negative control. */
  readonly durability?: 'request' | 'async';
  readonly log?: (line: string) => void;
}

export interface CrashReport {
  readonly rounds: number;
  readonly seed: number;
  /** Write operations acknowledged (index, overwrite, update, delete). */
  readonly acknowledgedOps: number;
  /** Documents that exist at the end (all acknowledged). */
  readonly documents: number;
  /** Acknowledged writes whose effect was missing or different after a restart. */
  readonly lost: number;
  /** Documents found that no acknowledged or in-flight write explains, or found more than once. */
  readonly junk: number;
  readonly duplicates: number;
  /** Operations in flight at a kill that had been applied / had not (both are correct). */
  readonly inFlightApplied: number;
  readonly inFlightNotApplied: number;
  readonly maxRestartMs: number;
  readonly failures: readonly string[];
}

type Source = Record<string, unknown>;
/** A document's state: its source, or null when absent (deleted or never written). */
type DocState = Source | null;

type Op =
  | { readonly action: 'index'; readonly id: string; readonly source: Source }
  | { readonly action: 'update'; readonly id: string; readonly doc: Source }
  | { readonly action: 'delete'; readonly id: string };

interface IdModel {
  acked: DocState;
  /** The result of an unacknowledged op on this id, if one was sent. */
  inflight?: DocState;
}

const INDEX = 'crash';


const WORDS = ['durable', 'translog', 'segment', 'flush', 'crash', 'replay', 'shard', 'commit', 'fsync', 'group', 'écrit', '書き込み'];

class Writer {
  private counter = 0;
  /** The bulk that got no answer, re-sent first after a restart. */
  private unanswered: Op[] | null = null;
  acknowledged = 0;

  constructor(readonly name: string, private readonly model: Map<string, IdModel>, private readonly random: () => number, private readonly failures: string[]) {}

  private liveIds(): string[] {
    const out: string[] = [];
    for (const [id, m] of this.model) if (id.startsWith(`${this.name}-`) && m.acked !== null) out.push(id);
    return out;
  }

  private nextBulk(round: number): Op[] {
    const ops: Op[] = [];
    const used = new Set<string>();
    const live = this.liveIds();
    const size = 5 + Math.floor(this.random() * 40);
    for (let i = 0; i < size; i++) {
      const r = this.random();
      const existing = live.length > 0 ? live[Math.floor(this.random() * live.length)] : null;
      if (existing && !used.has(existing) && r < 0.3) {
        used.add(existing);
        if (r < 0.1) ops.push({ action: 'delete', id: existing });
        else if (r < 0.18) ops.push({ action: 'update', id: existing, doc: { updated_in: round, n2: Math.floor(this.random() * 1e6) } });
        else ops.push({ action: 'index', id: existing, source: this.source(existing, round) });
      } else {
        const id = `${this.name}-${this.counter++}`;
        used.add(id);
        ops.push({ action: 'index', id, source: this.source(id, round) });
      }
    }
    return ops;
  }

  private source(id: string, round: number): Source {
    const words = Array.from({ length: 3 + Math.floor(this.random() * 30) }, () => WORDS[Math.floor(this.random() * WORDS.length)]);
    return { key: id, round, n: Math.floor(this.random() * 1e9), text: words.join(' '), nested: { a: [1, 2, 3], flag: this.random() < 0.5 } };
  }

  private resultOf(op: Op): DocState {
    if (op.action === 'delete') return null;
    if (op.action === 'index') return op.source;
    const m = this.model.get(op.id)!;
    return { ...(m.acked ?? {}), ...op.doc };
  }

  /** Sends bulks until the server goes away. */
  async run(url: string, round: number): Promise<void> {
    for (;;) {
      const ops = this.unanswered ?? this.nextBulk(round);
      for (const op of ops) {
        const m = this.model.get(op.id) ?? { acked: null };
        this.model.set(op.id, m);
        m.inflight = this.resultOf(op);
      }
      this.unanswered = ops;
      let res: Response;
      let body: { errors: boolean; items: Array<Record<string, { status: number; error?: unknown }>> };
      try {
        res = await fetch(`${url}/${INDEX}/_bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: ndjson(ops) });
        body = (await res.json()) as typeof body;
      } catch {
        return; // the server died with this bulk in flight
      }
      if (res.status !== 200) {
        this.failures.push(`bulk answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return;
      }
      ops.forEach((op, i) => {
        const item = Object.values(body.items[i])[0];
        const m = this.model.get(op.id)!;
        // A retried delete of a document the first attempt already deleted answers 404: still done.
        const ok = item.status < 300 || (op.action === 'delete' && item.status === 404);
        if (ok) {
          m.acked = m.inflight ?? null;
          this.acknowledged++;
        } else this.failures.push(`bulk item for [${op.id}] failed: ${JSON.stringify(item)}`);
        delete m.inflight;
      });
      this.unanswered = null;
    }
  }
}

function ndjson(ops: readonly Op[]): string {
  let out = '';
  for (const op of ops) {
    out += JSON.stringify({ [op.action]: { _id: op.id } }) + '\n';
    if (op.action === 'index') out += JSON.stringify(op.source) + '\n';
    else if (op.action === 'update') out += JSON.stringify({ doc: op.doc }) + '\n';
  }
  return out;
}

function same(a: DocState, b: DocState): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return v;
}

async function json(url: string, method: string, body?: unknown): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(parsed).slice(0, 300)}`);
  return parsed;
}

/** Every document of the index, by id (an id seen twice is counted as a duplicate). */
async function scan(url: string): Promise<{ docs: Map<string, Source>; duplicates: string[] }> {
  await json(`${url}/${INDEX}/_refresh`, 'POST');
  const docs = new Map<string, Source>();
  const duplicates: string[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const res = await json(`${url}/${INDEX}/_search`, 'POST', { size: 5000, sort: [{ key: 'asc' }], ...(after ? { search_after: after } : {}), track_total_hits: true });
    const hits = res.hits.hits as Array<{ _id: string; _source: Source; sort: unknown[] }>;
    for (const h of hits) {
      if (docs.has(h._id)) duplicates.push(h._id);
      docs.set(h._id, h._source);
    }
    if (hits.length < 5000) return { docs, duplicates };
    after = hits[hits.length - 1].sort;
  }
}

export async function runCrashTest(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => undefined);
  const random = mulberry32(options.seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'threadsearch-crash-'));
  const main = join(findRepoRoot(), 'dist', 'src', 'main.js');
  const model = new Map<string, IdModel>();
  const failures: string[] = [];
  const writers = Array.from({ length: options.writers }, (_, w) => new Writer(`w${w}`, model, mulberry32(options.seed * 31 + w), failures));
  let lost = 0;
  let junk = 0;
  let duplicates = 0;
  let applied = 0;
  let notApplied = 0;
  let maxRestartMs = 0;
  let server: ServerProcess | null = null;
  const start = async () => {
    const t0 = performance.now();
    server = await startProcess(main, ['--port', '0', '--no-security', '--data', dataDir, '--threads', '2']);
    maxRestartMs = Math.max(maxRestartMs, performance.now() - t0);
    return server;
  };
  try {
    let s = await start();
    await json(`${s.url}/${INDEX}`, 'PUT', {
      settings: {
        number_of_shards: 2, refresh_interval: '200ms', 'index.translog.flush_threshold_size': '256kb',
        'index.translog.durability': options.durability ?? 'request', 'index.translog.sync_interval': '30s',
      },
      mappings: { properties: { key: { type: 'keyword' }, text: { type: 'text' } } },
    });
    for (let round = 1; round <= options.rounds; round++) {
      const running = writers.map((w) => w.run(s.url, round));
      const [lo, hi] = options.killAfterMs;
      await new Promise((r) => setTimeout(r, lo + random() * (hi - lo)));
      await s.kill('SIGKILL');
      await Promise.all(running);

      s = await start();
      const health = await json(`${s.url}/_cluster/health`, 'GET');
      if (health.status === 'red') failures.push(`round ${round}: health is red after restart:\n${s.output()}`);
      if (/lost data|damaged/.test(s.output())) failures.push(`round ${round}: recovery reported damage:\n${s.output()}`);
      const { docs, duplicates: dup } = await scan(s.url);
      duplicates += dup.length;
      for (const id of dup) failures.push(`round ${round}: [${id}] found more than once`);
      let roundLost = 0;
      for (const [id, m] of model) {
        const actual: DocState = docs.get(id) ?? null;
        if (m.inflight !== undefined) {
          if (same(actual, m.inflight) && !same(m.inflight, m.acked)) applied++;
          else if (same(actual, m.acked)) notApplied++;
          else {
            junk++;
            failures.push(`round ${round}: [${id}] is ${JSON.stringify(actual)}; acknowledged ${JSON.stringify(m.acked)}, in flight ${JSON.stringify(m.inflight)}`);
          }
          // Whichever it is, it is now the state the retry starts from.
          m.acked = actual;
          delete m.inflight;
        } else if (!same(actual, m.acked)) {
          roundLost++;
          failures.push(`round ${round}: acknowledged [${id}] = ${JSON.stringify(m.acked)} but found ${JSON.stringify(actual)}`);
        }
      }
      lost += roundLost;
      for (const id of docs.keys()) {
        if (!model.has(id)) {
          junk++;
          failures.push(`round ${round}: [${id}] was never written`);
        }
      }
      const acked = writers.reduce((n, w) => n + w.acknowledged, 0);
      log(`round ${round}/${options.rounds}: ${acked} ops acknowledged so far, ${docs.size} documents, lost ${lost}, junk ${junk}`);
      if (failures.length > 20) break;
    }
    const finalDocs = (await scan(s.url)).docs.size;
    await s.stop();
    server = null;
    return {
      rounds: options.rounds, seed: options.seed, acknowledgedOps: writers.reduce((n, w) => n + w.acknowledged, 0), documents: finalDocs,
      lost, junk, duplicates, inFlightApplied: applied, inFlightNotApplied: notApplied, maxRestartMs: Math.round(maxRestartMs), failures,
    };
  } finally {
    await (server as ServerProcess | null)?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
