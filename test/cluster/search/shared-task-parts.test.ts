/**
 * The parts of a shard search task that many searches share (search-phase.ts `shardFetch`,
 * `segmentRefs`): the common single-shard fetch is one object per index and flag combination, and
 * a snapshot's segment refs one array, so a batch of searches clones each once — a back-reference
 * for every later search in the same message.
 */
import { serialize, deserialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { fetchSpec, segmentRefs, shardFetch } from '../../../src/cluster/search/search-phase.js';
import type { IndexService } from '../../../src/cluster/indices/index-service.js';
import type { ShardSnapshot } from '../../../src/cluster/indices/shard-state.js';
import { parseSearchRequest } from '../../../src/dsl/index.js';

/** What fetchSpec and the shared-fetch table read of an index: its name (and it is a weak key). */
const index = (name: string) => ({ name }) as unknown as IndexService;
const request = (body: Record<string, unknown>) => parseSearchRequest(body);
const snapshot = (ids: string[]) => ({ segments: ids.map((id) => ({ id, liveDocsId: `${id}.live` })), checkpoint: 0 }) as unknown as ShardSnapshot;

describe('shard task parts shared between searches', () => {
  it('gives searches that fetch alike one fetch object per index, with the spec fetchSpec builds', () => {
    const idx = index('books');
    const a = request({ query: { match: { text: 'amber' } }, size: 10 });
    const b = request({ query: { match: { text: 'birch' } }, size: 3 });
    const shared = shardFetch(a, idx, null, null);
    expect(shardFetch(b, idx, null, null)).toBe(shared);
    expect(shared).toEqual({ from: 0, spec: fetchSpec(a, idx, null, null) });
    // Another index, or another flag the spec carries, is another object.
    expect(shardFetch(a, index('books'), null, null)).not.toBe(shared);
    const versioned = shardFetch(request({ version: true }), idx, null, null);
    expect(versioned).not.toBe(shared);
    expect(versioned.spec.version).toBe(true);
    expect(shardFetch(request({ version: true, query: { match_all: {} } }), idx, null, null)).toBe(versioned);
  });

  it('builds its own fetch for a page further on, a source filter, sort keys or highlighting', () => {
    const idx = index('books');
    const plain = shardFetch(request({}), idx, null, null);
    const paged = shardFetch(request({ from: 5 }), idx, null, null);
    expect(paged).toEqual({ from: 5, spec: plain.spec });
    expect(paged).not.toBe(shardFetch(request({ from: 5 }), idx, null, null));
    const filtered = shardFetch(request({ _source: ['title'] }), idx, null, null);
    expect(filtered.spec.source.includes).toEqual(['title']);
    expect(shardFetch(request({ _source: false }), idx, null, null).spec.source.fetch).toBe(false);
  });

  it('gives every search of a snapshot the same segment refs', () => {
    const s = snapshot(['seg-1', 'seg-2']);
    const refs = segmentRefs(s);
    expect(refs).toEqual([{ segment: 'seg-1', liveDocs: 'seg-1.live' }, { segment: 'seg-2', liveDocs: 'seg-2.live' }]);
    expect(segmentRefs(s)).toBe(refs);
    expect(segmentRefs(snapshot(['seg-1', 'seg-2']))).not.toBe(refs);
  });

  it('clones a shared part once per message', () => {
    const idx = index('books');
    const s = snapshot(['seg-1']);
    const task = (req: ReturnType<typeof request>) => ({ segments: segmentRefs(s), request: { k: 10, fetch: shardFetch(req, idx, null, null) } });
    const tasks = Array.from({ length: 8 }, (_, i) => task(request({ query: { term: { text: `t${i}` } } })));
    const copies = tasks.map((t) => ({ segments: t.segments.map((r) => ({ ...r })), request: { k: 10, fetch: { from: 0, spec: { ...t.request.fetch.spec } } } }));
    expect(serialize(tasks).length).toBeLessThan(serialize(copies).length / 2);
    const received = deserialize(serialize(tasks)) as typeof tasks;
    expect(received[7].request.fetch).toBe(received[0].request.fetch);
    expect(received[7].segments).toBe(received[0].segments);
    expect(received[7]).toEqual(tasks[7]);
  });
});
