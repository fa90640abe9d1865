/**
 * Completion suggestions planned once per index on the coordinator, with ES's checks in ES's order
 * (SuggestionBuilder.populateCommonFields, CompletionSuggestionBuilder.build, SuggestBuilder.build,
 * CompletionSuggestionContext.toQuery) — each an illegal_argument_exception that fails the
 * index's shards — and the text analyzed with the field's search analyzer into the form its
 * inputs were indexed as (completion-form.ts).
 *
 * Which text: `prefix`, else the suggestion's `text`, makes a prefix query (fuzzy when asked);
 * else `regex` a regex query; else the global `suggest.text` a prefix query. The response entry
 * shows `text`, else `prefix`, else `regex`, else the global text.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { completionAnalysis, resolveTextContext, type ResolvedField, type ResolvedMapping } from '../../index/index.js';
import { REGEXP_FLAGS, type CompletionSuggestion } from '../../dsl/suggest/index.js';
import { DEFAULT_MAX_DETERMINIZED_STATES, compileRegexp } from '../../common/pattern/index.js';
import type { CompletionMatch, ExecCompletion } from './exec-suggest.js';

/** The text a suggestion's response entry shows, or null when it has none (an error when planned). */
export function suggestionText(s: CompletionSuggestion, globalText: string | null): string | null {
  return s.text ?? s.prefix ?? s.regex ?? globalText;
}

export function planCompletion(mapping: ResolvedMapping, s: CompletionSuggestion, globalText: string | null): ExecCompletion {
  const field = mapping.fields.get(s.field);
  if (!field) throw new IllegalArgumentError(`no mapping found for field [${s.field}]`);
  if (s.analyzer !== null && !resolveTextContext(mapping.text).analysis.analyzer(s.analyzer)) throw new IllegalArgumentError(`analyzer [${s.analyzer}] doesn't exists`);
  if (field.type !== 'completion') throw new IllegalArgumentError(`Field [${s.field}] is not a completion suggest field`);
  if (s.contexts) throw new IllegalArgumentError(`suggester [${s.field}] doesn't expect any context`);
  if (suggestionText(s, globalText) === null) throw new IllegalArgumentError('The required text option is missing');
  return { field: s.field, match: completionMatch(field, s, globalText), size: s.size, skipDuplicates: s.skipDuplicates };
}

function completionMatch(field: ResolvedField, s: CompletionSuggestion, globalText: string | null): CompletionMatch {
  const prefix = s.prefix ?? s.text;
  if (prefix === null && s.regex !== null) {
    if (s.fuzzy !== null) throw new IllegalArgumentError("can not use 'fuzzy' options with 'regex");
    const flags = s.regexOptions?.flags ?? REGEXP_FLAGS.ALL;
    const maxDeterminizedStates = s.regexOptions?.maxDeterminizedStates ?? DEFAULT_MAX_DETERMINIZED_STATES;
    return { kind: 'regex', automaton: compileRegexp(s.regex, { flags, maxDeterminizedStates, matchPrefix: true }) };
  }
  // ES's completion query analyzes with the field's search analyzer, whatever `analyzer` says.
  const form = completionAnalysis(field, field.searchAnalyzer)(prefix ?? globalText!);
  if (form === null) return { kind: 'none' };
  return s.fuzzy !== null ? { kind: 'fuzzy', form, options: s.fuzzy } : { kind: 'prefix', form };
}
