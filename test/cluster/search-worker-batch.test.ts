/**
 * A search worker's channel batch (workers/search.ts channelBatch): every single-shard page of the
 * batch is a view of one buffer (transferred once with the reply), with the very bytes the same
 * search renders alone; a search that fails (a plan the worker does not keep) gets its error and
 * leaves the others' pages alone.
 */
import { describe, expect, it } from 'vitest';
import { channelBatch, search } from '../../workers/search.js';
import type { ChannelSearch, SearchShardTask } from '../../workers/protocol.js';
import type { FetchSpec, ShardSearchRequest } from '../../src/search/index.js';
import { InProcessIndex } from '../support/engine-harness.js';

const SPEC: FetchSpec = {
  index: 'idx', source: { fetch: true, includes: [], excludes: [] }, storedFieldsNone: false, version: false, seqNoPrimaryTerm: false,
  tracksScores: true, sortKeys: null, missingStyles: null, highlight: null, fields: null,
};

describe('a search channel batch in the worker', () => {
  const index = new InProcessIndex({ properties: { text: { type: 'text' } } });
  const words = ['amber', 'birch', 'cedar', 'dune', 'elm'];
  index.addSegment(Array.from({ length: 300 }, (_, i) => ({
    id: `d${i}`, source: { text: `${words[i % 5]} ${words[(i * 7) % 5]} ${words[(i * 3) % 5]} ${'x'.repeat(i % 40)}`, n: i },
  })));
  const segment = index.segments[0];
  const refs = [{ segment: 'batch-seg', liveDocs: null }];
  const request = (text: string, k = 10): ShardSearchRequest => ({
    query: index.plan({ match: { text } }), k, trackTotalHitsUpTo: 10_000, minScore: null, sort: null, trackScores: false, searchAfter: null,
    terminateAfter: 0, fetch: { from: 0, spec: SPEC },
  });
  const bytesText = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

  it('gives all pages one buffer, each with the bytes of the search alone; a failed search does not disturb them', () => {
    const first = search({ segments: refs, request: request('amber'), inline: { 'batch-seg': segment.sab as SharedArrayBuffer } });
    expect(first.ok).toBe(true);
    const queries = ['amber birch', 'cedar', 'dune elm amber', 'birch'];
    const alone = queries.map((q) => {
      const r = search({ segments: refs, request: request(q, 50) });
      if (!r.ok) throw new Error('search failed');
      return bytesText(r.value.rendered!);
    });
    const searches: ChannelSearch[] = queries.map((q) => ({ segments: refs, request: request(q, 50), planId: -1 }));
    // A plan kept by id, and one the worker never got.
    searches.splice(2, 0, { segments: refs, request: { ...request('elm', 50), query: null }, planId: 7 });
    searches.splice(1, 0, { segments: refs, request: { ...request('elm', 50), query: null }, planId: 99 });
    const replies = channelBatch({ searches, plans: [[7, index.plan({ match: { text: 'elm' } })]], dropPlans: null });
    expect(replies).toHaveLength(6);
    expect(replies[1]).toMatchObject({ ok: false, error: { reason: 'search plan [99] is not kept by this worker' } });
    const pages = replies.filter((r) => r.ok).map((r) => (r.ok ? r.value.rendered! : new Uint8Array()));
    expect(pages).toHaveLength(5);
    expect(new Set(pages.map((p) => p.buffer)).size).toBe(1);
    expect(pages.reduce((n, p) => n + p.byteLength, 0)).toBe(pages[0].buffer.byteLength);
    const elm = search({ segments: refs, request: request('elm', 50) } as SearchShardTask);
    if (!elm.ok) throw new Error('search failed');
    expect(pages.map(bytesText)).toEqual([alone[0], alone[1], bytesText(elm.value.rendered!), alone[2], alone[3]]);
    for (const p of pages) expect((JSON.parse(bytesText(p)) as unknown[]).length).toBeGreaterThan(0);
  });
});
