/**
 * A highlight request + an index's mapping and planned queries → that index's HighlightSpec, on the
 * coordinator (ES HighlightBuilder.build + HighlightPhase's field resolution):
 *
 * - Field names with `*` expand to the mapped fields they match, keeping only `text` and `keyword`
 *   ones; a name given explicitly is highlighted whatever its type (a number or date then only ever
 *   yields its `no_match_size` text), unless it is not mapped. A name met twice keeps its first place
 *   and its last options.
 * - Options: the field's, else the top level's, else ES's defaults (tags `<em>`/`</em>`, fragment
 *   size 100, 5 fragments, require_field_match true, no_match_size 0, order none, unified).
 * - Checks ES makes only when it highlights a hit are recorded as errors the fetch raises then.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { HighlightOptions, HighlightRequest, QueryNode } from '../../dsl/index.js';
import { wildcardMatch } from '../../common/wildcard.js';
import { NUMERIC_TYPES, isAnalyzedTextType, prefixFieldPath, type ResolvedField, type ResolvedMapping } from '../../index/index.js';
import type { Exec } from '../plan/exec-nodes.js';
import type { HighlightFieldSpec, HighlightSpec } from './highlight-spec.js';

/** HighlightBuilder's defaults. */
const DEFAULT_PRE_TAGS = ['<em>'];
const DEFAULT_POST_TAGS = ['</em>'];
const DEFAULT_FRAGMENT_SIZE = 100;
const DEFAULT_NUMBER_OF_FRAGMENTS = 5;
/** The highlighters ES registers; `plain` and `fvh` are answered by the unified one here. */
const HIGHLIGHTERS = new Set(['unified', 'plain', 'fvh']);

export interface HighlightPlanInput {
  readonly request: HighlightRequest;
  readonly mapping: ResolvedMapping;
  /** This index's planned query for a `highlight_query`, or for the search itself (null). */
  readonly plan: (query: QueryNode | null) => Exec;
  /** A fused (RRF) page: ES turns Lucene's matches mode off for it, so terms highlight one by one. */
  readonly fused: boolean;
}

export function buildHighlightSpec(input: HighlightPlanInput): HighlightSpec {
  const { request, mapping } = input;
  const queries: Exec[] = [];
  const queryIndex = new Map<QueryNode | null, number>();
  const queryFor = (q: QueryNode | null): number => {
    let i = queryIndex.get(q);
    if (i === undefined) {
      queryIndex.set(q, (i = queries.length));
      queries.push(input.plan(q));
    }
    return i;
  };
  let error: IllegalArgumentError | null = null;
  const fields = new Map<string, HighlightFieldSpec>();
  for (const f of request.fields) {
    const pick = <K extends keyof HighlightOptions>(k: K): HighlightOptions[K] => f.options[k] ?? request.options[k];
    const type = pick('type') ?? 'unified';
    if (!HIGHLIGHTERS.has(type)) error ??= new IllegalArgumentError(`unknown highlighter type [${type}] for the field [${f.name}]`);
    const wildcard = f.name.includes('*');
    const names = wildcard ? [...mapping.fields.keys()].filter((p) => wildcardMatch(f.name, p)) : [f.name];
    for (const name of names) {
      const field = mapping.fields.get(name);
      const tokenized = field ? analysis(field, wildcard) : null;
      if (!field || tokenized === null) continue;
      const numberOfFragments = pick('numberOfFragments') ?? DEFAULT_NUMBER_OF_FRAGMENTS;
      const scanner = pick('boundaryScanner') ?? 'sentence';
      const requireFieldMatch = pick('requireFieldMatch') ?? true;
      // DefaultHighlighter.getBreakIterator has no `chars` scanner; fields broken by value never ask it.
      const breaksText = tokenized && numberOfFragments !== 0 && type === 'unified';
      fields.set(name, {
        name, field, sourcePath: sourcePath(field), tokenized,
        prefixField: field.searchAsYouType?.role === 'root' ? prefixFieldPath(field.path) : null,
        query: queryFor(pick('highlightQuery')),
        weightMatches: requireFieldMatch && !input.fused,
        requireFieldMatch,
        preTag: (pick('preTags') ?? DEFAULT_PRE_TAGS)[0],
        postTag: (pick('postTags') ?? DEFAULT_POST_TAGS)[0],
        passageMode: scanner === 'word' ? 'word' : 'sentence',
        fragmentSize: pick('fragmentSize') ?? DEFAULT_FRAGMENT_SIZE,
        numberOfFragments,
        noMatchSize: pick('noMatchSize') ?? 0,
        scoreOrder: pick('order') === 'score',
        maxAnalyzedOffset: pick('maxAnalyzedOffset'),
        error: breaksText && scanner === 'chars' ? new IllegalArgumentError('Invalid boundary scanner type: chars').toPlain() : null,
      });
    }
  }
  return { html: request.encoder === 'html', queries, fields: [...fields.values()], error: error?.toPlain() ?? null };
}

/**
 * Whether a field highlights as analysed text (true), one token per value (false: keyword, and
 * numbers, dates and booleans named explicitly), or not at all (null: other types, and anything but
 * text and keyword reached by a wildcard).
 */
function analysis(field: ResolvedField, byWildcard: boolean): boolean | null {
  if (byWildcard) return field.type === 'text' ? true : field.type === 'keyword' ? false : null;
  if (isAnalyzedTextType(field.type)) return true;
  const scalar = field.type === 'keyword' || field.type === 'date' || field.type === 'boolean' || (NUMERIC_TYPES as readonly string[]).includes(field.type);
  return scalar ? false : null;
}

/** Where a field's values are in `_source`: a multi-field and a search_as_you_type subfield read their parent's. */
export function sourcePath(field: ResolvedField): string {
  if (field.searchAsYouType !== null) return field.searchAsYouType.root;
  return field.isMultiField ? field.path.slice(0, field.path.lastIndexOf('.')) : field.path;
}
