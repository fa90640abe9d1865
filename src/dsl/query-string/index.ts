/**
 * dsl/query-string/ — the `query_string` mini-language (Lucene's classic QueryParser syntax, with
 * Elasticsearch's QueryStringQueryParser additions) parsed into a typed, immutable AST.
 *
 * Invariants: pure syntax — no analysis, mappings or field expansion happen here; the AST says what
 * Lucene's parser would ask for (getFieldQuery, getPrefixQuery, …), and a later stage builds queries
 * per field. Token boundaries, operator handling and error messages follow Lucene's generated parser.
 *
 * simple.ts is the other syntax, `simple_query_string`'s (Lucene's SimpleQueryParser), which never fails.
 *
 * Imports nothing outside this folder (no `node:` modules, no other project folders).
 */
export {
  parseQueryString,
  DEFAULT_FUZZINESS,
  type DefaultOperator,
  type Occur,
  type QsNode,
  type QsClause,
  type QsBool,
  type QsTerm,
  type QsPhrase,
  type QsPrefix,
  type QsWildcard,
  type QsRegexp,
  type QsRange,
  type QsExists,
  type QsMatchAll,
} from './syntax.js';
export { QueryStringSyntaxError } from './errors.js';
export { parseSimpleQueryString, SQS_FLAGS, SQS_ALL_FLAGS, type SqsNode, type SqsOccur, type SqsLeafBuilder } from './simple.js';
