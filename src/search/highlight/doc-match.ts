/**
 * Whether one query leaf matches one document, answered from the segment the hit came from. The
 * weight-matches highlighter needs this for leaves it cannot judge from the highlighted field's
 * own text (other fields, numeric ranges, …): a bool's required clause on another field decides
 * whether the bool's matches on this field count, as in Lucene's BooleanWeight.matches.
 *
 * Scorers are built per check (a term or phrase scorer costs a dictionary lookup); doc sets
 * (prefixes, patterns, ranges) are built once per segment and leaf for the whole page.
 */
import type { Segment } from '../../index/index.js';
import { buildScorer, SegmentSearchContext } from '../exec/build-scorer.js';
import { buildDocSet, type BitSet } from '../exec/doc-set.js';
import type { DocSetExec, Exec } from '../plan/exec-nodes.js';

export class DocMatcher {
  private readonly docSets = new Map<Exec, Map<Segment, BitSet | null>>();

  matches(exec: Exec, segment: Segment, doc: number): boolean {
    if (isDocSet(exec)) {
      let bySegment = this.docSets.get(exec);
      if (!bySegment) this.docSets.set(exec, (bySegment = new Map()));
      let bits = bySegment.get(segment);
      if (bits === undefined) bySegment.set(segment, (bits = buildDocSet(exec, segment, null)));
      return bits !== null && bits.nextSetBit(doc) === doc;
    }
    const ctx = new SegmentSearchContext(segment);
    try {
      const scorer = buildScorer(exec, ctx);
      return scorer !== null && scorer.advance(doc) === doc;
    } finally {
      ctx.release();
    }
  }
}

function isDocSet(exec: Exec): exec is DocSetExec {
  switch (exec.kind) {
    case 'terms': case 'term_range': case 'prefix': case 'pattern': case 'numeric_range': case 'exists': case 'ids': case 'slice':
      return true;
    default:
      return false;
  }
}
