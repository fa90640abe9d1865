/** The typed form of a search request's `suggest` member (ES SuggestBuilder and its suggestion builders). */

/** ES FuzzyOptions, defaults filled (FuzzyCompletionQuery's): edits counted in bytes unless `unicodeAware`. */
export interface CompletionFuzzyOptions {
  /** 0..2; `AUTO` is resolved once (ES Fuzziness.asDistance() with no text counts 5 characters). */
  readonly editDistance: number;
  readonly transpositions: boolean;
  /** Prefixes shorter than this match exactly. */
  readonly minLength: number;
  /** Leading units that must match exactly. */
  readonly prefixLength: number;
  readonly unicodeAware: boolean;
}

/** ES RegexOptions: which optional Lucene RegExp operators are on (RegExp flag bits), default ALL. */
export interface CompletionRegexOptions {
  readonly flags: number;
  readonly maxDeterminizedStates: number;
}

/** One `completion` suggestion (CompletionSuggestionBuilder). */
export interface CompletionSuggestion {
  readonly kind: 'completion';
  readonly name: string;
  readonly field: string;
  /** `text`, `prefix`, `regex` as given at the suggestion level (null: absent). */
  readonly text: string | null;
  readonly prefix: string | null;
  readonly regex: string | null;
  /** `analyzer`: checked to exist; ES's completion query analyzes with the field's search analyzer anyway. */
  readonly analyzer: string | null;
  readonly size: number;
  readonly skipDuplicates: boolean;
  readonly fuzzy: CompletionFuzzyOptions | null;
  readonly regexOptions: CompletionRegexOptions | null;
  /** `contexts` was given (no field here has context mappings, so it fails per shard as in ES). */
  readonly contexts: boolean;
}

export type SuggestionNode = CompletionSuggestion;

export interface SuggestNode {
  /** `suggest.text`: the text of suggestions that give none of their own. */
  readonly globalText: string | null;
  /** In request order. */
  readonly suggestions: readonly SuggestionNode[];
}

/** SuggestionBuilder's default `size`. */
export const DEFAULT_SUGGEST_SIZE = 5;
