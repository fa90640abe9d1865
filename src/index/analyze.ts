/**
 * `_analyze` (ES TransportAnalyzeAction): runs an analyzer, a field's analysis, a normalizer, or
 * ad-hoc components over the request's texts and returns the tokens — or, with `explain`, each
 * stage's output (char filters' texts, the tokenizer's and every filter's tokens with their extra
 * attributes). Several texts continue one another as values of a field do: positions go on after
 * the analyzer's position increment gap, offsets after one more char (the offset gap).
 */
import {
  AnalysisConfigError, runStages, type AnalyzerComponents, type ConfiguredAnalyzer, type IndexAnalysis, type Token,
} from '../analysis/index.js';
import { IllegalArgumentError } from '../errors/index.js';
import type { ResolvedMapping } from './mapping/resolve.js';
import { DEFAULT_TEXT_CONTEXT, resolveTextContext } from './text-analysis.js';
import { normalizerOf } from './mapping/field-analyzers.js';

/** What to analyse (dsl/analyze-request.ts parses the REST body into this shape). */
export interface AnalyzeRequest {
  readonly text: readonly string[];
  readonly analyzer: string | null;
  readonly field: string | null;
  readonly normalizer: string | null;
  /** A name, or an inline definition (`{ "type": … }`). */
  readonly tokenizer: string | Readonly<Record<string, unknown>> | null;
  readonly filter: ReadonlyArray<string | Readonly<Record<string, unknown>>>;
  readonly charFilter: ReadonlyArray<string | Readonly<Record<string, unknown>>>;
  readonly explain: boolean;
  /** With `explain`: the extra token attributes to show (null = all). */
  readonly attributes: readonly string[] | null;
}

export interface AnalyzeToken {
  readonly token: string;
  readonly start_offset: number;
  readonly end_offset: number;
  readonly type: string;
  readonly position: number;
  readonly positionLength?: number;
  readonly [attribute: string]: unknown;
}

/** What to run: components, whether they are the index's own (`custom_analyzer`), and the gap between texts. */
interface Plan {
  readonly name: string;
  readonly components: AnalyzerComponents;
  readonly custom: boolean;
  readonly positionIncrementGap: number;
  readonly normalizer: boolean;
}

const OFFSET_GAP = 1;

function fromAnalyzer(a: ConfiguredAnalyzer, gap = a.positionIncrementGap): Plan {
  return { name: a.name, components: a.components, custom: a.custom, positionIncrementGap: gap, normalizer: false };
}

function plan(req: AnalyzeRequest, mapping: ResolvedMapping | null): Plan {
  const analysis: IndexAnalysis = mapping === null ? DEFAULT_TEXT_CONTEXT.analysis : resolveTextContext(mapping.text).analysis;
  const scope = mapping === null ? 'global ' : '';
  if (req.analyzer !== null) {
    const a = analysis.analyzer(req.analyzer);
    if (!a) throw new IllegalArgumentError(`failed to find ${scope}analyzer [${req.analyzer}]`);
    return fromAnalyzer(a);
  }
  if (req.tokenizer !== null || req.filter.length > 0 || req.charFilter.length > 0) {
    try {
      const components = analysis.components(req.tokenizer ?? 'keyword', req.filter, req.charFilter);
      return { name: '_anonymous', components, custom: true, positionIncrementGap: 0, normalizer: req.tokenizer === null };
    } catch (e) {
      if (e instanceof AnalysisConfigError) throw new IllegalArgumentError(mapping === null ? e.message : e.message.replace(' global ', ' '));
      throw e;
    }
  }
  if (req.normalizer !== null) {
    const n = analysis.normalizer(req.normalizer);
    if (!n) throw new IllegalArgumentError(`failed to find normalizer under [${req.normalizer}]`);
    return { name: n.name, components: n.components, custom: true, positionIncrementGap: 0, normalizer: true };
  }
  if (req.field !== null && mapping !== null) {
    const field = mapping.fields.get(req.field);
    if (field) {
      if (field.type === 'keyword') {
        const normalizer = normalizerOf(field);
        if (normalizer !== null) return { name: normalizer.name, components: normalizer.components, custom: true, positionIncrementGap: 0, normalizer: true };
        return fromAnalyzer(analysis.analyzer('keyword')!);
      }
      if (field.type !== 'text' && field.type !== 'search_as_you_type' && field.type !== 'completion') {
        throw new IllegalArgumentError(`Can't process field [${req.field}], Analysis requests are only supported on tokenized fields`);
      }
      // A text field analyses with its index analyzer, its values `position_increment_gap` apart.
      return fromAnalyzer(analysis.analyzer(field.analyzer)!, field.positionIncrementGap);
    }
  }
  return fromAnalyzer(analysis.analyzer('default')!);
}

/** UTF-8 bytes as Lucene's BytesRef prints them: "[74 68 65]". */
function bytesOf(term: string): string {
  return '[' + [...new TextEncoder().encode(term)].map((b) => b.toString(16).padStart(2, '0')).join(' ') + ']';
}

class TokenList {
  readonly tokens: AnalyzeToken[] = [];
  lastPosition = -1;
  lastOffset = 0;

  add(t: Token, extra: Record<string, unknown> | null): void {
    if (t.posInc > 0) this.lastPosition += t.posInc;
    const out: Record<string, unknown> = {
      token: t.term, start_offset: this.lastOffset + t.start, end_offset: this.lastOffset + t.end, type: t.type, position: this.lastPosition,
    };
    if (t.posLen > 1) out.positionLength = t.posLen;
    if (extra) Object.assign(out, extra);
    this.tokens.push(out as AnalyzeToken);
  }

  /** After a text: Lucene's end() increment and final offset, then the gaps to the next text. */
  endText(finalIncrement: number, finalOffset: number, gap: number): void {
    this.lastOffset += finalOffset + OFFSET_GAP;
    this.lastPosition += finalIncrement + gap;
  }
}

/** ES's explain attributes, sorted by name; `keyword` only once a stage that reads it has run. */
function extraAttributes(t: Token, withKeyword: boolean, only: readonly string[] | null): Record<string, unknown> {
  const all: Record<string, unknown> = { bytes: bytesOf(t.term) };
  if (withKeyword) all.keyword = t.keyword;
  all.positionLength = t.posLen;
  all.termFrequency = 1;
  if (only === null) return all;
  return Object.fromEntries(Object.entries(all).filter(([k]) => only.includes(k)));
}

export function analyzeText(req: AnalyzeRequest, mapping: ResolvedMapping | null): Record<string, unknown> {
  const p = plan(req, mapping);
  if (!req.explain) {
    const list = new TokenList();
    for (const text of req.text) {
      const { streams } = runStages(p.components, text, false);
      const last = streams[streams.length - 1];
      for (const t of last.tokens) list.add(t, null);
      list.endText(last.finalIncrement, text.length, p.positionIncrementGap);
    }
    return { tokens: list.tokens };
  }
  // explain: every stage, each over all the texts.
  const runs = req.text.map((text) => runStages(p.components, text, true));
  const stageCount = p.components.filters.length + 1;
  const stages: AnalyzeToken[][] = [];
  let keywordSeen = false;
  for (let s = 0; s < stageCount; s++) {
    if (s > 0 && p.components.filters[s - 1].usesKeyword === true) keywordSeen = true;
    const list = new TokenList();
    req.text.forEach((text, i) => {
      const stream = runs[i].streams[s];
      for (const t of stream.tokens) list.add(t, extraAttributes(t, keywordSeen, req.attributes));
      list.endText(stream.finalIncrement, text.length, p.positionIncrementGap);
    });
    stages.push(list.tokens);
  }
  const charfilters = p.components.charFilters.map((f, k) => ({ name: f.name, filtered_text: runs.map((r) => r.charFilterTexts[k]) }));
  if (!p.custom && !p.normalizer && p.components.charFilters.length === 0) {
    // A built-in analyzer is shown as one stage: its final tokens.
    return { detail: { custom_analyzer: false, analyzer: { name: p.name, tokens: stages[stages.length - 1] } } };
  }
  return {
    detail: {
      custom_analyzer: true,
      charfilters,
      tokenizer: { name: p.components.tokenizer.name, tokens: stages[0] },
      tokenfilters: p.components.filters.map((f, k) => ({ name: f.name, tokens: stages[k + 1] })),
    },
  };
}
