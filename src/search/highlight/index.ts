/**
 * search/highlight — the fetch phase's `highlight` (ES's default `unified` highlighter): request +
 * mapping + planned query → a plain-data spec per index on the coordinator (build-spec.ts); per hit,
 * in whichever thread renders the page, the field values from `_source` are re-analysed, the
 * planned query's matches found (highlight-query.ts knows every executable node kind),
 * passages chosen and scored as Lucene's FieldHighlighter does, and formatted.
 * Only the returned page is highlighted. Imports search/ (plan, exec), index/, analysis/, dsl/ types
 * and leaves; never cluster/.
 */
export type { HighlightFieldSpec, HighlightSpec } from './highlight-spec.js';
export { buildHighlightSpec, sourcePath, type HighlightPlanInput } from './build-spec.js';
export { fieldText, type FieldText } from './field-text.js';
export { renderHighlight } from './highlighter.js';
