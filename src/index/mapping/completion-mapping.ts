/**
 * `completion` field parameters as ES's CompletionFieldMapper keeps them: `analyzer`,
 * `preserve_separators`, `preserve_position_increments` and `max_input_length` are always
 * serialized (their defaults filled in), `search_analyzer` only when it differs from `analyzer`,
 * all in the mapper's parameter order — so GET _mapping renders what ES renders and a mapping
 * update that spells out a default does not conflict with one that left it out.
 */
import type { CompletionOptions } from './types.js';

/** ES CompletionFieldMapper.Defaults; the analyzer default is the index's `simple`. */
const DEFAULTS = { analyzer: 'simple', preserve_separators: true, preserve_position_increments: true, max_input_length: 50 };

/** Validated parameters (parameters.ts) → the stored form, in CompletionFieldMapper.getParameters() order. */
export function completionParams(given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const analyzer = (given.analyzer as string | undefined) ?? DEFAULTS.analyzer;
  const out: Record<string, unknown> = { analyzer };
  if (given.search_analyzer !== undefined && given.search_analyzer !== analyzer) out.search_analyzer = given.search_analyzer;
  out.preserve_separators = given.preserve_separators ?? DEFAULTS.preserve_separators;
  out.preserve_position_increments = given.preserve_position_increments ?? DEFAULTS.preserve_position_increments;
  // `max_input_len` is the deprecated name; ES renders the current one.
  out.max_input_length = given.max_input_length ?? given.max_input_len ?? DEFAULTS.max_input_length;
  if (given.meta !== undefined) out.meta = given.meta;
  return out;
}

/** The resolved analysis options of stored completion parameters. */
export function completionOptions(params: Readonly<Record<string, unknown>>): CompletionOptions {
  return {
    preserveSeparators: params.preserve_separators !== false,
    preservePositionIncrements: params.preserve_position_increments !== false,
    maxInputLength: Number(params.max_input_length ?? DEFAULTS.max_input_length),
  };
}
