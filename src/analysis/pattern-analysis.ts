/**
 * The regex components (Lucene PatternTokenizer, PatternReplaceCharFilter, PatternReplaceFilter;
 * ES `pattern` tokenizer and analyzer, `pattern_replace` char filter and token filter). Patterns
 * are java.util.regex syntax with ES's `flags`, run on common/pattern's matcher VM: Java's
 * leftmost-first matches and groups, in time linear in the text, never a backtracking engine.
 * Java features that are not regular (back-references, lookaround, possessive quantifiers …) are
 * refused when the index is created.
 */
import { EsError } from '../errors/index.js';
import { JavaPattern, javaRegexFlags, type Replacement } from '../common/pattern/index.js';
import { AnalysisConfigError, type Params } from './analysis-params.js';
import { OffsetCorrections, type CharFilter } from './char-filter.js';
import { token, type Token } from './token-graph.js';
import type { TokenFilter } from './token-stream.js';

/** ES's default pattern (PatternAnalyzer.NON_WORD_PATTERN). */
export const NON_WORD_PATTERN = '\\W+';

function configError<T>(build: () => T): T {
  try {
    return build();
  } catch (e) {
    if (e instanceof EsError) throw new AnalysisConfigError(e.message);
    throw e;
  }
}

/** `pattern` and `flags` of a component (ES Regex.compile(pattern, flags)). */
export function compilePattern(p: Params, pattern: string): JavaPattern {
  return configError(() => JavaPattern.compile(pattern, javaRegexFlags(p.string('flags'))));
}

/** A required `pattern` setting, with ES's message when it is missing or empty. */
export function requiredPattern(p: Params, what: string): JavaPattern {
  const pattern = p.string('pattern');
  if (pattern === null || pattern === '') throw new AnalysisConfigError(`pattern is missing for [${p.name}] ${what} of type 'pattern_replace'`);
  return compilePattern(p, pattern);
}

export function replacementOf(pattern: JavaPattern, p: Params): Replacement {
  return configError(() => pattern.replacement(p.string('replacement', '')));
}

/**
 * Lucene PatternTokenizer: with `group` -1 the text between matches (String.split without empty
 * tokens), otherwise each match's `group` (0 = the whole match), empty ones skipped.
 */
export function patternTokenize(pattern: JavaPattern, group: number, text: string): Token[] {
  const tokens: Token[] = [];
  if (group >= 0) {
    pattern.forEachMatch(text, (m) => {
      const start = JavaPattern.groupStart(m, group);
      const end = JavaPattern.groupEnd(m, group);
      if (start !== end) tokens.push(token(text.slice(start, end), start, end));
    });
    return tokens;
  }
  let index = 0;
  pattern.forEachMatch(text, (m) => {
    if (m.start - index > 0) tokens.push(token(text.slice(index, m.start), index, m.start));
    index = m.end;
  });
  if (text.length - index > 0) tokens.push(token(text.slice(index), index, text.length));
  return tokens;
}

/** ES PatternTokenizerFactory's `group`, checked against the pattern (Java would fail on use with "No group n"). */
export function patternGroup(p: Params, pattern: JavaPattern): number {
  const group = p.int('group', -1);
  if (group > pattern.groupCount) throw new AnalysisConfigError(`No group ${group}`);
  return group;
}

/**
 * Lucene PatternReplaceCharFilter: every match replaced, with its offset corrections (a shorter
 * replacement maps what follows back by the difference; a longer one maps its extra chars to the
 * match's last char).
 */
export function patternReplaceCharFilter(name: string, pattern: JavaPattern, replacement: Replacement): CharFilter {
  return {
    name,
    filter(text) {
      const corrections = new OffsetCorrections();
      let out = '';
      let cumulative = 0;
      let lastMatchEnd = 0;
      pattern.forEachMatch(text, (m) => {
        const groupSize = m.end - m.start;
        out += text.slice(lastMatchEnd, m.start);
        lastMatchEnd = m.end;
        const lengthBeforeReplacement = out.length;
        const replaced = pattern.expand(text, m, replacement);
        out += replaced;
        const replacementSize = replaced.length;
        if (replacementSize < groupSize) {
          cumulative += groupSize - replacementSize;
          corrections.add(lengthBeforeReplacement + replacementSize, cumulative);
        } else {
          for (let i = groupSize; i < replacementSize; i++) corrections.add(lengthBeforeReplacement + i, --cumulative);
        }
      });
      out += text.slice(lastMatchEnd);
      return { text: out, correct: corrections.toCorrect() };
    },
  };
}

/** Lucene PatternReplaceFilter: each term's matches replaced (`all`) or only the first. */
export function patternReplaceTermFilter(pattern: JavaPattern, replacement: Replacement, all: boolean): TokenFilter {
  return (term) => pattern.replace(term, replacement, all);
}
