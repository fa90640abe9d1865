/**
 * In-process BM25 peers (performance.md §3.1) behind one `search(query, k)` shape, built over the same
 * documents with whitespace-only tokenisation and no lowercasing, stemming or stop words (§2.1), so
 * every engine indexes exactly the terms ref-taat indexes. Library defaults are otherwise kept
 * (MiniSearch's BM25+ k 1.2 / b 0.7 / d 0.5 and OR; wink's k1 1.2 / b 0.75): the peers are measured as
 * shipped, which is what §3.3's recall column describes.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import type { BenchDoc } from '../../src/cli/corpus/corpus.js';
import { buildRefTaat } from './ref-taat.js';
import type { SearchHit } from './ref-taat.js';

export type { SearchHit } from './ref-taat.js';

export interface SearchPeer {
  readonly name: string;
  /** Wall time to build the index from `docs`, in milliseconds. */
  readonly buildMs: number;
  search(query: string, k: number): SearchHit[];
}

export type PeerName = 'ref-taat' | 'minisearch' | 'wink';

export const PEER_NAMES: readonly PeerName[] = ['ref-taat', 'minisearch', 'wink'];

const WHITESPACE = /\s+/;

function whitespaceTokens(text: string): string[] {
  return text.split(WHITESPACE).filter((t) => t.length > 0);
}

function timed<T>(build: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = build();
  return { value, ms: performance.now() - start };
}

export function buildRefTaatPeer(docs: readonly BenchDoc[]): SearchPeer {
  const { value: engine, ms } = timed(() => buildRefTaat(docs));
  return { name: 'ref-taat', buildMs: ms, search: (q, k) => engine.search(q, k) };
}

/** MiniSearch 7.2: returns every match sorted, with no limit option, so we slice. */
export function buildMiniSearchPeer(docs: readonly BenchDoc[]): SearchPeer {
  const { value: index, ms } = timed(() => {
    const ms = new MiniSearch<BenchDoc>({
      fields: ['text'],
      idField: 'id',
      storeFields: [],
      tokenize: whitespaceTokens,
      // The identity (instead of the default toLowerCase) keeps terms exactly as ref-taat sees them.
      processTerm: (term) => term,
    });
    ms.addAll(docs as BenchDoc[]);
    return ms;
  });
  return {
    name: 'minisearch',
    buildMs: ms,
    search(query, k) {
      const results = index.search(query);
      const n = Math.min(k, results.length);
      const hits: SearchHit[] = new Array<SearchHit>(n);
      for (let i = 0; i < n; i++) hits[i] = { id: String(results[i].id), score: results[i].score };
      return hits;
    },
  };
}

/** The slice of wink-bm25-text-search 3.1's API we use (the package ships no type declarations). */
interface WinkBm25 {
  defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
  definePrepTasks(tasks: Array<(input: string) => string[]>, field?: string): number;
  addDoc(doc: Record<string, string>, id: string): number;
  consolidate(fp?: number): boolean;
  search(text: string, limit?: number): Array<[string, number]>;
}

const require = createRequire(import.meta.url);

/** wink-bm25-text-search 3.1: exact BM25 (scores rounded to 4 decimals at consolidate()). */
export function buildWinkPeer(docs: readonly BenchDoc[]): SearchPeer {
  const { value: engine, ms } = timed(() => {
    const winkBm25 = require('wink-bm25-text-search') as () => WinkBm25;
    const engine = winkBm25();
    engine.defineConfig({ fldWeights: { text: 1 } });
    // Without a field argument the tasks apply to documents and queries alike.
    engine.definePrepTasks([whitespaceTokens]);
    for (let i = 0; i < docs.length; i++) engine.addDoc({ text: docs[i].text }, docs[i].id);
    engine.consolidate();
    return engine;
  });
  return {
    name: 'wink',
    buildMs: ms,
    search(query, k) {
      // wink clamps limit to ≥ 1; k = 0 must still return nothing.
      if (k <= 0) return [];
      const results = engine.search(query, k);
      const hits: SearchHit[] = new Array<SearchHit>(results.length);
      for (let i = 0; i < results.length; i++) hits[i] = { id: results[i][0], score: results[i][1] };
      return hits;
    },
  };
}

export function buildPeer(name: PeerName, docs: readonly BenchDoc[]): SearchPeer {
  switch (name) {
    case 'ref-taat':
      return buildRefTaatPeer(docs);
    case 'minisearch':
      return buildMiniSearchPeer(docs);
    case 'wink':
      return buildWinkPeer(docs);
  }
}
