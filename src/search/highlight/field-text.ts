/**
 * A hit's values for one highlighted field, re-analysed with the field's index analyzer so the
 * highlighter sees the terms the index holds, with offsets into the original text.
 *
 * Values come from `_source` at the field's source path (the parent's for a multi-field), as ES's
 * SourceValueFetcher reads them (XContentMapValues.extractRawValues: nested objects and dotted keys
 * alike, arrays flattened, nulls skipped). They are joined by U+0000 (ES's MULTIVAL_SEP_CHAR) so
 * offsets count as in ES; each value is analysed on its own, the next one starting
 * `position_increment_gap` positions later (Lucene's MultiValueTokenStream), so phrases never match
 * across values. A field that is not tokenized (keyword, numbers, dates) has one token per value:
 * the whole value; a keyword value longer than `ignore_above` was not indexed and is skipped.
 */
import { isPlainObject } from '../../common/json.js';
import { indexAnalyzerFor } from '../../index/index.js';
import type { HighlightFieldSpec } from './highlight-spec.js';

/** ES CustomUnifiedHighlighter.MULTIVAL_SEP_CHAR. */
export const VALUE_SEPARATOR = '\u0000';

export interface FieldText {
  readonly content: string;
  /** [start, end) of each value in `content`. */
  readonly valueStarts: readonly number[];
  readonly valueEnds: readonly number[];
  /** Tokens in position order: term, position and offsets in `content`. */
  readonly terms: readonly string[];
  readonly positions: readonly number[];
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

/** The field's values in `source`, or null when it has none. */
export function fieldText(spec: Pick<HighlightFieldSpec, 'field' | 'sourcePath' | 'tokenized' | 'maxAnalyzedOffset'>, source: Record<string, unknown>): FieldText | null {
  const raw: unknown[] = [];
  extractRawValues(raw, source, spec.sourcePath.split('.'), 0);
  const values: string[] = [];
  for (const v of raw) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
    const s = String(v);
    if (!spec.tokenized && s.length > spec.field.ignoreAbove) continue;
    values.push(s);
  }
  if (values.length === 0) return null;
  const out = {
    content: values.join(VALUE_SEPARATOR), valueStarts: [] as number[], valueEnds: [] as number[],
    terms: [] as string[], positions: [] as number[], starts: [] as number[], ends: [] as number[],
  };
  const analyzer = spec.tokenized ? indexAnalyzerFor(spec.field) : null;
  const limit = spec.maxAnalyzedOffset ?? Infinity;
  let base = 0;
  let position = 0;
  values.forEach((value, i) => {
    out.valueStarts.push(base);
    out.valueEnds.push(base + value.length);
    if (analyzer) {
      const next = analyzer.analyze(value, (term, pos, start, end) => {
        // ES's LimitTokenOffsetAnalyzer (max_analyzed_offset) stops at the first token starting past the limit.
        if (start > limit) return;
        out.terms.push(term);
        out.positions.push(pos);
        out.starts.push(base + start);
        out.ends.push(base + end);
      }, position);
      position = next + spec.field.positionIncrementGap;
    } else {
      out.terms.push(value);
      out.positions.push(i);
      out.starts.push(base);
      out.ends.push(base + value.length);
    }
    base += value.length + 1;
  });
  return out;
}

/** XContentMapValues.extractRawValues: a path element may also be part of a dotted key. */
function extractRawValues(out: unknown[], part: unknown, path: readonly string[], index: number): void {
  if (Array.isArray(part)) {
    for (const v of part) if (v !== null) extractRawValues(out, v, path, index);
    return;
  }
  if (!isPlainObject(part)) {
    if (index === path.length) out.push(part);
    return;
  }
  if (index === path.length) return;
  let key = path[index];
  for (let next = index + 1; ; next++) {
    const value = part[key];
    if (value !== undefined && value !== null) extractRawValues(out, value, path, next);
    if (next === path.length) return;
    key += '.' + path[next];
  }
}
