/**
 * One hit's `highlight` object: for each field of the spec, the field's values from `_source` are
 * re-analysed, the query's matches found, passages chosen and formatted (ES DefaultHighlighter, the
 * `unified` highlighter). Only fields with a fragment appear; no field → no `highlight` at all.
 *
 * The spec's queries are compiled once per spec object — once per request on the coordinator, once
 * per task in a worker — and so are the doc sets the weight-matches mode consults; hits cost only
 * their own analysis and matching.
 */
import { EsError } from '../../errors/index.js';
import type { Segment } from '../../index/index.js';
import { DocMatcher } from './doc-match.js';
import { fieldText } from './field-text.js';
import { compileHighlightQuery, type HighlightNode } from './highlight-query.js';
import type { HighlightFieldSpec, HighlightSpec } from './highlight-spec.js';
import { javaHashMapOrder } from './java-hash-order.js';
import { formatPassage } from './passage-format.js';
import { noMatchPassage, selectPassages, type Passage } from './passages.js';
import { termMatches, weightMatches } from './query-matches.js';

interface Compiled {
  readonly queries: readonly HighlightNode[];
  readonly docs: DocMatcher;
}

const compiled = new WeakMap<HighlightSpec, Compiled>();
/** ES keeps only fragments with text (Strings.hasText). */
const HAS_TEXT = /\S/;

function compile(spec: HighlightSpec): Compiled {
  let c = compiled.get(spec);
  if (!c) compiled.set(spec, (c = { queries: spec.queries.map(compileHighlightQuery), docs: new DocMatcher() }));
  return c;
}

/** The rendered `highlight` object of a hit, or null when no field has a fragment. */
export function renderHighlight(spec: HighlightSpec, segment: Segment, doc: number, rawSource: string | null): string | null {
  // ES fails the fetch as soon as it highlights a hit with, e.g., an unknown highlighter type.
  if (spec.error) throw EsError.fromPlain(spec.error);
  const source = rawSource === null ? null : (JSON.parse(rawSource) as Record<string, unknown>);
  const c = compile(spec);
  const found: Array<readonly [string, string[]]> = [];
  for (const field of spec.fields) {
    if (field.error) throw EsError.fromPlain(field.error);
    if (source === null) continue;
    const fragments = highlightField(field, spec.html, c, source, segment, doc);
    if (fragments.length > 0) found.push([field.name, fragments]);
  }
  if (found.length === 0) return null;
  return `{${javaHashMapOrder(found).map(([name, fragments]) => `${JSON.stringify(name)}:${JSON.stringify(fragments)}`).join(',')}}`;
}

function highlightField(field: HighlightFieldSpec, html: boolean, c: Compiled, source: Record<string, unknown>, segment: Segment, doc: number): string[] {
  const text = fieldText(field, source);
  if (text === null) return [];
  const query = c.queries[field.query];
  const target = { field: field.field.path, prefixField: field.prefixField, text };
  const matches = field.weightMatches
    ? weightMatches(query, { ...target, docs: c.docs, segment, doc })
    : termMatches(query, target, field.requireFieldMatch);
  let passages: Passage[] = selectPassages(text, matches, field);
  if (passages.length === 0 && field.noMatchSize > 0) {
    const p = noMatchPassage(text, field.noMatchSize);
    if (p !== null) passages = [p];
  }
  const format = { preTag: field.preTag, postTag: field.postTag, html, trim: field.numberOfFragments !== 0 };
  const snippets = passages
    .map((p) => ({ text: formatPassage(p, text.content, format), score: p.score }))
    .filter((s) => HAS_TEXT.test(s.text));
  if (field.scoreOrder) snippets.sort((a, b) => b.score - a.score);
  return snippets.map((s) => s.text);
}
