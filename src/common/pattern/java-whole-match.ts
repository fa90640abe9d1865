/**
 * A java.util.regex pattern matched against a whole string (Java's `Matcher.matches()`), compiled
 * to a DFA: what ES does with `http.cors.allow-origin` `/regex/` values. With whole-string
 * matching a leading `^` and a trailing `$` say nothing more, so they are accepted there and
 * dropped; anywhere else an anchor is still refused by the parser (a clear error when the
 * pattern is configured), since it would need context the automaton does not have.
 */
import { toDfa, type Dfa } from './automaton.js';
import { parseJavaRegex } from './java-regex-syntax.js';

/** The pattern without a leading `^` and an unescaped trailing `$`. */
export function stripEndAnchors(regex: string): string {
  let from = 0;
  let to = regex.length;
  if (regex.startsWith('^')) from = 1;
  if (to > from && regex.endsWith('$')) {
    // `\$` is a literal dollar: the `$` is an anchor only after an even run of backslashes.
    let backslashes = 0;
    for (let i = to - 2; i >= from && regex[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 0) to--;
  }
  return regex.slice(from, to);
}

/** A DFA accepting exactly the strings `regex` matches whole; IllegalArgumentError when it cannot be one. */
export function compileJavaWholeMatch(regex: string): Dfa {
  return toDfa(parseJavaRegex(stripEndAnchors(regex)));
}
