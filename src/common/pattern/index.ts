/**
 * common/pattern — user patterns (Lucene regexps, Lucene wildcards) compiled to DFAs and matched in
 * linear time, as Lucene and ES do: no backtracking, whatever a client sends. java.util.regex
 * patterns (ingest `split`, the analysis `pattern` components) parse to the same nodes; where
 * Matcher.find semantics are needed (leftmost-first, groups, anchors, lookaround) they run on a
 * Pike VM (matcher-vm.ts), linear in the text too. ES's limits apply
 * (`max_determinized_states` → too_complex_to_determinize_exception, `index.max_regex_length`).
 * Pure: no Node APIs; imports only errors/. The `*`-only globs of names (indices, fields,
 * filter_path, privileges) are simpler and live in ../wildcard.ts.
 */
export * from './pattern-node.js';
export * from './regexp-syntax.js';
export * from './wildcard-syntax.js';
export * from './automaton.js';
export * from './run-automaton.js';
export * from './compile.js';
export * from './java-regex-syntax.js';
export * from './splitter.js';
export * from './java-whole-match.js';
export * from './matcher-vm.js';
export * from './java-pattern.js';
export * from './unicode-properties.js';
