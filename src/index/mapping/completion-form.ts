/**
 * The analyzed form of a completion input or prefix, as Lucene's CompletionAnalyzer makes it
 * (ConcatenateGraphFilter over TokenStreamToAutomaton): the whole text's tokens joined into one
 * string, each token preceded by as many separators (U+001F) as its position increment — so a
 * removed stop word leaves an extra separator when `preserve_position_increments` is on — and
 * trailing removed tokens leave trailing separators. Without `preserve_separators` the tokens are
 * simply concatenated; with it, a separator character inside a token is escaped by doubling it.
 * Completion matching is a prefix match against this whole string, not per word.
 *
 * The built-in analyzers never stack tokens at one position, so the token graph is a single path
 * and every input has exactly one form (Lucene enumerates every path of a graph).
 */
import type { Analyzer } from '../../analysis/index.js';
import { analysisOf } from './field-analyzers.js';
import type { CompletionOptions, ResolvedField } from './types.js';

/** ConcatenateGraphFilter.SEP_LABEL (TokenStreamToAutomaton.POS_SEP). */
export const COMPLETION_SEPARATOR = '\u001f';

/** The analyzed form of `text`, or null when the analyzer emits no token (nothing is indexed or matched). */
export function completionForm(analyzer: Analyzer, text: string, opts: CompletionOptions): string | null {
  let form = '';
  let last = -1;
  const keepSep = opts.preserveSeparators;
  const end = analyzer.analyze(text, (term, position) => {
    if (keepSep) {
      // Position increment = separators before the token; the first token's leading holes count
      // one less (no separator precedes the first position).
      const inc = opts.preservePositionIncrements ? position - last : 1;
      const seps = last < 0 ? inc - 1 : inc;
      if (seps > 0) form += COMPLETION_SEPARATOR.repeat(seps);
      form += term.includes(COMPLETION_SEPARATOR) ? term.replaceAll(COMPLETION_SEPARATOR, COMPLETION_SEPARATOR + COMPLETION_SEPARATOR) : term;
    } else {
      form += term;
    }
    last = position;
  });
  if (last < 0) return null;
  // Removed tokens after the last one: each is a trailing hole behind a separator.
  const trailing = keepSep && opts.preservePositionIncrements ? end - (last + 1) : 0;
  return trailing > 0 ? form + COMPLETION_SEPARATOR.repeat(trailing) : form;
}

/**
 * The analysis of a completion field with one of its analyzers (`analyzer` at index time,
 * `search_analyzer` for prefixes), as a function of the text.
 */
export function completionAnalysis(field: ResolvedField, analyzerName: string): (text: string) => string | null {
  const analyzer = analysisOf(field).analyzer(analyzerName);
  // Mapping validation only admits known analyzers: a missing one is a broken invariant.
  if (!analyzer) throw new Error(`unknown analyzer [${analyzerName}]`);
  const opts = field.completion!;
  return (text) => completionForm(analyzer, text, opts);
}
