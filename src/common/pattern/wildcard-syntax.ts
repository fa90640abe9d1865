/**
 * Lucene's wildcard syntax (WildcardQuery.toAutomaton, what ES's `wildcard` query and
 * query_string's `te?t*` take): `*` any string, `?` any one character, `\` makes the next character
 * literal (a trailing `\` is itself). Everything else is literal.
 */
import { ANY_CHAR, EMPTY_STRING, charRanges, type PatternNode } from './pattern-node.js';

export function parseWildcard(pattern: string, caseInsensitive = false): PatternNode {
  const parts: PatternNode[] = [];
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '*') parts.push({ kind: 'any_string' });
    else if (c === '?') parts.push(ANY_CHAR);
    else {
      const literal = c === '\\' && i + 1 < chars.length ? chars[++i] : c;
      parts.push({ kind: 'chars', ranges: charRanges(literal.codePointAt(0)!, caseInsensitive) });
    }
  }
  return parts.length === 0 ? EMPTY_STRING : parts.length === 1 ? parts[0] : { kind: 'concat', parts };
}
