/**
 * Compound scorers (Lucene ConjunctionScorer, DisjunctionSumScorer with minimum-should-match,
 * ReqExclScorer, ReqOptSumScorer, DisjunctionMaxScorer, ConstantScoreScorer). Sums are taken in
 * double precision over float32 clause scores and rounded to float32 once, as Lucene does, which
 * also makes the result independent of the order clauses are added in.
 */
import { matchesDoc, NO_MORE_DOCS, Scorer } from './scorer.js';


export class MatchAllScorer extends Scorer {
  constructor(private readonly maxDoc: number, private readonly constantScore: number) {
    super();
  }
  nextDoc(): number {
    return (this.doc = this.doc + 1 < this.maxDoc ? this.doc + 1 : NO_MORE_DOCS);
  }
  advance(target: number): number {
    return (this.doc = target < this.maxDoc ? target : NO_MORE_DOCS);
  }
  score(): number {
    return this.constantScore;
  }
  maxScore(): number {
    return this.constantScore;
  }
  cost(): number {
    return this.maxDoc;
  }
}

/** Every clause must match; `scoring` clauses contribute to the score (filters do not). */
export class ConjunctionScorer extends Scorer {
  private readonly all: Scorer[];
  constructor(private readonly scoring: Scorer[], filters: Scorer[]) {
    super();
    this.all = [...scoring, ...filters].sort((a, b) => a.cost() - b.cost());
  }
  private align(target: number): number {
    const lead = this.all[0];
    let doc = target;
    outer: for (;;) {
      if (doc === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      for (let i = 1; i < this.all.length; i++) {
        const s = this.all[i];
        if (s.matchesAt !== undefined) continue;
        const d = s.doc < doc ? s.advance(doc) : s.doc;
        if (d > doc) {
          doc = lead.advance(d);
          continue outer;
        }
      }
      // Two-phase clauses verify the doc every iterating clause agreed on (Lucene's matches()).
      for (let i = 1; i < this.all.length; i++) {
        const s = this.all[i];
        if (s.matchesAt !== undefined && !s.matchesAt(doc)) {
          doc = lead.nextDoc();
          continue outer;
        }
      }
      return (this.doc = doc);
    }
  }
  nextDoc(): number {
    return this.align(this.all[0].nextDoc());
  }
  advance(target: number): number {
    return this.align(this.all[0].advance(target));
  }
  score(): number {
    let sum = 0;
    for (let i = 0; i < this.scoring.length; i++) sum += this.scoring[i].score();
    return Math.fround(sum);
  }
  maxScore(): number {
    let sum = 0;
    for (const s of this.scoring) sum += s.maxScore();
    return sum;
  }
  cost(): number {
    return this.all[0].cost();
  }
}

/** At least `minimumShouldMatch` (≥ 1) clauses match; score = sum of matching clauses. */
export class DisjunctionSumScorer extends Scorer {
  private matched = 0;
  constructor(private readonly clauses: Scorer[], private readonly minimumShouldMatch: number) {
    super();
    for (const c of clauses) c.nextDoc();
  }
  private settle(): number {
    for (;;) {
      let min = NO_MORE_DOCS;
      for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc < min) min = this.clauses[i].doc;
      if (min === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      let n = 0;
      for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc === min) n++;
      if (n >= this.minimumShouldMatch) {
        this.matched = n;
        return (this.doc = min);
      }
      for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc === min) this.clauses[i].nextDoc();
    }
  }
  nextDoc(): number {
    const cur = this.doc;
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc === cur) this.clauses[i].nextDoc();
    return this.settle();
  }
  advance(target: number): number {
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc < target) this.clauses[i].advance(target);
    return this.settle();
  }
  score(): number {
    let sum = 0;
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc === this.doc) sum += this.clauses[i].score();
    return Math.fround(sum);
  }
  matchCount(): number {
    return this.matched;
  }
  maxScore(): number {
    let sum = 0;
    for (const c of this.clauses) sum += c.maxScore();
    return sum;
  }
  cost(): number {
    let c = 0;
    for (const s of this.clauses) c += s.cost();
    return c;
  }
}

/** score = max + tieBreaker × (sum − max) over matching clauses. */
export class DisMaxScorer extends Scorer {
  constructor(private readonly clauses: Scorer[], private readonly tieBreaker: number) {
    super();
    for (const c of clauses) c.nextDoc();
  }
  private settle(): number {
    let min = NO_MORE_DOCS;
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc < min) min = this.clauses[i].doc;
    return (this.doc = min);
  }
  nextDoc(): number {
    const cur = this.doc;
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc === cur) this.clauses[i].nextDoc();
    return this.settle();
  }
  advance(target: number): number {
    for (let i = 0; i < this.clauses.length; i++) if (this.clauses[i].doc < target) this.clauses[i].advance(target);
    return this.settle();
  }
  score(): number {
    // Lucene DisjunctionMaxScorer: float max, double sum of the others.
    let max = 0;
    let sum = 0;
    for (let i = 0; i < this.clauses.length; i++) {
      if (this.clauses[i].doc !== this.doc) continue;
      const s = this.clauses[i].score();
      sum += s;
      if (s > max) max = s;
    }
    return Math.fround(max + (sum - max) * this.tieBreaker);
  }
  maxScore(): number {
    let max = 0;
    let sum = 0;
    for (const c of this.clauses) {
      const m = c.maxScore();
      sum += m;
      max = Math.max(max, m);
    }
    // score() evaluates the same expression over other operands; its double rounding is not
    // monotone in them, so the bound carries a margin far above that error (~1e-16 relative).
    return (max + (sum - max) * this.tieBreaker) * (1 + 1e-12);
  }
  cost(): number {
    let c = 0;
    for (const s of this.clauses) c += s.cost();
    return c;
  }
}

/** Matches of `required` that `excluded` does not match. */
export class ReqExclScorer extends Scorer {
  constructor(private readonly required: Scorer, private readonly excluded: Scorer) {
    super();
  }
  private filter(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      if (!matchesDoc(this.excluded, doc)) break;
      doc = this.required.nextDoc();
    }
    return (this.doc = doc);
  }
  nextDoc(): number {
    return this.filter(this.required.nextDoc());
  }
  advance(target: number): number {
    return this.filter(this.required.advance(target));
  }
  score(): number {
    return this.required.score();
  }
  maxScore(): number {
    return this.required.maxScore();
  }
  cost(): number {
    return this.required.cost();
  }
}

/** Matches of `required`, plus `optional`'s score where it matches too. */
export class ReqOptScorer extends Scorer {
  constructor(private readonly required: Scorer, private readonly optional: Scorer) {
    super();
  }
  nextDoc(): number {
    return (this.doc = this.required.nextDoc());
  }
  advance(target: number): number {
    return (this.doc = this.required.advance(target));
  }
  score(): number {
    let s = this.required.score();
    if (matchesDoc(this.optional, this.doc)) s += this.optional.score();
    return Math.fround(s);
  }
  maxScore(): number {
    return this.required.maxScore() + this.optional.maxScore();
  }
  cost(): number {
    return this.required.cost();
  }
}

/**
 * Lucene's FunctionScoreQuery.boostByQuery (ES `boosting`): the positive scorer's docs, each score
 * times `negativeBoost` when the negative scorer matches the doc too, times `boost`, in float as
 * Lucene computes it.
 */
export class BoostingScorer extends Scorer {
  constructor(
    private readonly positive: Scorer, private readonly negative: Scorer | null, private readonly negativeBoost: number, private readonly boost: number,
  ) {
    super();
  }
  nextDoc(): number {
    return (this.doc = this.positive.nextDoc());
  }
  advance(target: number): number {
    return (this.doc = this.positive.advance(target));
  }
  score(): number {
    let s = this.positive.score();
    const negative = this.negative;
    if (negative !== null && matchesDoc(negative, this.doc)) s = Math.fround(s * this.negativeBoost);
    return Math.fround(s * this.boost);
  }
  maxScore(): number {
    return this.positive.maxScore() * Math.max(1, this.negativeBoost) * this.boost;
  }
  cost(): number {
    return this.positive.cost();
  }
}

/** The matches of `inner` with a constant score. */
export class ConstantScorer extends Scorer {
  constructor(private readonly inner: Scorer, private readonly constantScore: number) {
    super();
    // A two-phase filter stays two-phase under constant_score.
    if (inner.matchesAt !== undefined) this.matchesAt = (doc) => inner.matchesAt!(doc) && ((this.doc = doc), true);
  }
  nextDoc(): number {
    return (this.doc = this.inner.nextDoc());
  }
  advance(target: number): number {
    return (this.doc = this.inner.advance(target));
  }
  score(): number {
    return this.constantScore;
  }
  maxScore(): number {
    return this.constantScore;
  }
  cost(): number {
    return this.inner.cost();
  }
}
