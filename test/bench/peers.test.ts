import { describe, expect, it } from 'vitest';
import { generateBm25Corpus } from '../../src/cli/corpus/corpus.js';
import { PEER_NAMES, buildPeer } from '../../bench/lib/peers.js';
import type { SearchPeer } from '../../bench/lib/peers.js';

const corpus = generateBm25Corpus({ docs: 3_000, queries: 100, vocab: 2_000, qFromRank: 20 });

function overlapAt10(a: SearchPeer, b: SearchPeer): number {
  let same = 0;
  let total = 0;
  for (const q of corpus.queries) {
    const want = new Set(b.search(q, 10).map((h) => h.id));
    for (const h of a.search(q, 10)) if (want.has(h.id)) same++;
    total += want.size;
  }
  return same / total;
}

describe('peers', () => {
  const peers = Object.fromEntries(PEER_NAMES.map((name) => [name, buildPeer(name, corpus.docs)]));

  it.each(PEER_NAMES)('%s answers with at most k hits, best first, and reports its build time', (name) => {
    const peer = peers[name];
    expect(peer.name).toBe(name);
    expect(peer.buildMs).toBeGreaterThan(0);
    for (const q of corpus.queries.slice(0, 20)) {
      const hits = peer.search(q, 5);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(5);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
      for (const h of hits) expect(Number(h.id)).toBeLessThan(corpus.docs.length);
    }
    expect(peer.search(corpus.queries[0], 0)).toEqual([]);
  });

  it('wink reproduces exact BM25 (ref-taat) top-10s', () => {
    // wink rounds term scores to 4 decimals, which can only reorder near-ties at the cut.
    expect(overlapAt10(peers.wink, peers['ref-taat'])).toBeGreaterThan(0.99);
  });

  it('MiniSearch is close to, not equal to, exact BM25 (BM25+ with b 0.7 and a coordination factor)', () => {
    const overlap = overlapAt10(peers.minisearch, peers['ref-taat']);
    expect(overlap).toBeGreaterThan(0.5);
    expect(overlap).toBeLessThan(1);
  });

  it('tokenises on whitespace only: case and punctuation are part of the term', () => {
    const docs = [
      { id: '0', text: 'Alpha beta' },
      { id: '1', text: 'alpha beta,' },
      { id: '2', text: 'gamma delta' },
    ];
    for (const name of PEER_NAMES) {
      const peer = buildPeer(name, docs);
      expect(peer.search('alpha', 10).map((h) => h.id), name).toEqual(['1']);
      expect(peer.search('beta,', 10).map((h) => h.id), name).toEqual(['1']);
    }
  });
});
