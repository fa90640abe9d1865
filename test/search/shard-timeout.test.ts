/**
 * Search timeouts at the shard level (ES `timeout`, "bail with the hits accumulated up to that
 * point when expired"): the query phase checks an absolute deadline before each segment, once per
 * MaxScore window and every DEADLINE_CHECK_INTERVAL documents in document-at-a-time loops, and
 * returns what it collected with `timedOut` set.
 *
 * Mid-search expiry is made deterministic by scripting Date.now() (this runs in one thread): the
 * first N checks see a time before the deadline, every later one a time after it.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { InProcessIndex, type HarnessDoc } from '../support/engine-harness.js';
import type { ExecSort, ShardSearchRequest } from '../../src/search/index.js';
import { DEADLINE_CHECK_INTERVAL } from '../../src/search/exec/deadline.js';

/** More than two MaxScore windows (16384 docs each) in the first segment, a small second segment. */
const FIRST_SEGMENT = 40_000;
const SECOND_SEGMENT = 500;
const WINDOW = 16_384;
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];

const index = new InProcessIndex({ properties: { body: { type: 'text' }, n: { type: 'long' } } });
const doc = (i: number): HarnessDoc => ({
  id: `d${i}`,
  source: { body: `${WORDS[i % 5]} ${WORDS[(i * 7) % 5]} ${i % 3 === 0 ? 'alpha' : 'echo'}`, n: (i * 7919) % 10_007 },
});

beforeAll(() => {
  index.addSegment(Array.from({ length: FIRST_SEGMENT }, (_, i) => doc(i)));
  index.addSegment(Array.from({ length: SECOND_SEGMENT }, (_, i) => doc(FIRST_SEGMENT + i)));
});
afterEach(() => {
  vi.restoreAllMocks();
});

const DISJUNCTION = { match: { body: 'alpha bravo' } };
const CONJUNCTION = { bool: { must: [{ match: { body: 'alpha' } }, { match: { body: 'echo' } }] } };
const BY_N: ExecSort[] = [{ kind: 'numeric', field: 'n', desc: false, mode: 'min', missing: Number.MAX_SAFE_INTEGER }];
const CASES: Array<[string, unknown, Partial<ShardSearchRequest>]> = [
  ['a term disjunction (MaxScore)', DISJUNCTION, {}],
  ['a conjunction (document at a time)', CONJUNCTION, {}],
  ['a field sort', DISJUNCTION, { sort: BY_N }],
];
const EXACT = { k: 10, trackTotalHitsUpTo: Number.MAX_SAFE_INTEGER };

function run(query: unknown, options: Partial<ShardSearchRequest>) {
  return index.searchPlan(index.plan(query), { ...EXACT, ...options });
}

/** Date.now() answers `deadline` for the first `checks` calls, then a time past it. */
function expireAfter(checks: number, deadline: number): void {
  let calls = 0;
  vi.spyOn(Date, 'now').mockImplementation(() => (calls++ < checks ? deadline : deadline + 1));
}

describe('a shard search with a deadline', () => {
  it.each(CASES)('runs to completion without one, or before it: %s', (_name, query, options) => {
    const free = run(query, options);
    expect(free.timedOut).toBe(false);
    const bounded = run(query, { ...options, deadline: Date.now() + 3_600_000 });
    expect(bounded.timedOut).toBe(false);
    expect(bounded.totalHits).toBe(free.totalHits);
    expect(Array.from(bounded.hits)).toEqual(Array.from(free.hits));
  });

  it.each(CASES)('already past when it starts: timed out with no hits, %s', (_name, query, options) => {
    const r = run(query, { ...options, deadline: Date.now() - 1 });
    expect(r.timedOut).toBe(true);
    expect(r.totalHits).toBe(0);
    expect(r.totalRelation).toBe('eq');
    expect(r.hits.length).toBe(0);
  });

  it('passing between MaxScore windows keeps the windows already done', () => {
    const full = run(DISJUNCTION, {});
    const deadline = Date.now() + 60_000;
    expireAfter(2, deadline); // the first segment's check and its first window's check pass
    const r = run(DISJUNCTION, { deadline });
    vi.restoreAllMocks();
    expect(r.timedOut).toBe(true);
    expect(r.totalHits).toBeGreaterThan(0);
    expect(r.totalHits).toBeLessThan(full.totalHits);
    // Exactly the first window's top 10 and count: an exhaustive search restricted to its
    // documents (a filter adds no score, and statistics are the whole index's) ranks the same.
    const firstWindowIds = Array.from({ length: WINDOW }, (_, i) => `d${i}`);
    const reference = run({ bool: { must: [DISJUNCTION], filter: [{ ids: { values: firstWindowIds } }] } }, {});
    expect(r.totalHits).toBe(reference.totalHits);
    expect(index.hits(r).hits).toEqual(index.hits(reference).hits);
  });

  it('passing in a document-at-a-time loop keeps the documents already collected', () => {
    const full = run(CONJUNCTION, {});
    const deadline = Date.now() + 60_000;
    expireAfter(2, deadline); // the segment check and the first in-loop check pass
    const r = run(CONJUNCTION, { deadline });
    vi.restoreAllMocks();
    expect(r.timedOut).toBe(true);
    // Stopped at the second in-loop check: between one and two check intervals of matches.
    expect(r.totalHits).toBeGreaterThanOrEqual(DEADLINE_CHECK_INTERVAL);
    expect(r.totalHits).toBeLessThan(2 * DEADLINE_CHECK_INTERVAL);
    expect(r.totalHits).toBeLessThan(full.totalHits);
    expect(r.hits.length / 4).toBe(10);
  });

  it('passing between segments keeps the segments already searched', () => {
    const segmentOnly = new InProcessIndex({ properties: { body: { type: 'text' } } });
    for (let s = 0; s < 3; s++) segmentOnly.addSegment(Array.from({ length: 100 }, (_, i) => doc(s * 100 + i)));
    const exec = segmentOnly.plan({ match_all: {} });
    const deadline = Date.now() + 60_000;
    expireAfter(1, deadline); // the first segment's check passes, the second's does not
    const r = segmentOnly.searchPlan(exec, { ...EXACT, deadline });
    vi.restoreAllMocks();
    expect(r.timedOut).toBe(true);
    expect(r.totalHits).toBe(100);
    expect(segmentOnly.hits(r).hits.map((h) => h.id)).toEqual(Array.from({ length: 10 }, (_, i) => `d${i}`));
  });
});
