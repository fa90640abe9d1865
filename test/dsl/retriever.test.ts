/**
 * The hybrid request forms parse into one fusion tree: filters pushed down to every leaf, a
 * top-level standard retriever folded into the plain members, the legacy form's defaults.
 */
import { describe, expect, it } from 'vitest';
import { parseSearchRequest } from '../../src/dsl/search-request.js';
import { validateFusion } from '../../src/dsl/rank.js';
import { fusionLeaves, type RrfNode } from '../../src/dsl/retriever.js';

const M = (title: string) => ({ match: { title } });

describe('hybrid request parsing', () => {
  it('takes ES defaults for an empty rrf: window 10, rank_constant 60', () => {
    const r = parseSearchRequest({ sub_searches: [{ query: M('a') }, { query: M('b') }], rank: { rrf: {} } });
    expect(r.query).toBeNull();
    expect(r.fusion?.legacy).toBe(true);
    expect(r.fusion?.root).toMatchObject({ rankWindowSize: 10, rankConstant: 60 });
    expect(fusionLeaves(r.fusion!.root)).toHaveLength(2);
  });

  it('makes the lone query one result set of a legacy rank (which then fails validation)', () => {
    const r = parseSearchRequest({ query: M('a'), rank: { rrf: { window_size: 50 } } });
    expect(r.fusion?.root.retrievers).toHaveLength(1);
    expect(r.fusion?.windowSizeName).toBe('window_size');
    expect(() => validateFusion(r)).toThrow(/requires a minimum of \[2\] result sets/);
  });

  it("pushes an rrf filter into every child, nested ones included, after each child's own filter", () => {
    const r = parseSearchRequest({
      retriever: {
        rrf: {
          filter: { term: { tag: 'x' } },
          retrievers: [
            { standard: { query: M('a'), filter: { term: { tag: 'own' } } } },
            { rrf: { retrievers: [{ standard: { query: M('b') } }, { standard: {} }] } },
          ],
        },
      },
    });
    const leaves = fusionLeaves(r.fusion!.root);
    expect(leaves.map((l) => l.query.kind)).toEqual(['bool', 'bool', 'bool']);
    const filters = leaves.map((l) => (l.query.kind === 'bool' ? l.query.filter.map((f) => (f.kind === 'term' ? f.value : null)) : []));
    expect(filters).toEqual([['own', 'x'], ['x'], ['x']]);
    // A standard retriever without a query under a filter is a filter-only bool (it scores 0).
    expect(leaves[2].query.kind === 'bool' && leaves[2].query.must).toEqual([]);
    expect((r.fusion!.root.retrievers[1] as RrfNode).rankWindowSize).toBe(10);
  });

  it('folds a top-level standard retriever into query, min_score, sort, search_after and terminate_after', () => {
    const r = parseSearchRequest({ retriever: { standard: { query: M('a'), min_score: 1.5, sort: ['n'], search_after: [3], terminate_after: 7 } } });
    expect(r.fusion).toBeNull();
    expect(r.query?.kind).toBe('match');
    expect(r).toMatchObject({ minScore: 1.5, searchAfter: [3], terminateAfter: 7 });
    expect(r.sort).toHaveLength(1);
  });

  it('treats a single sub-search without rank as the query', () => {
    const r = parseSearchRequest({ sub_searches: [{ query: M('a') }] });
    expect(r.fusion).toBeNull();
    expect(r.query?.kind).toBe('match');
  });
});
