/**
 * QueryStringSyntaxError and Lucene's message texts. Elasticsearch passes Lucene's ParseException
 * message through (as the `parse_exception` cause of "Failed to parse query [...]"), so clients see
 * these strings; they follow the JavaCC 7 generated ParseException / TokenMgrError that Lucene 9+
 * ships (ES 8+). Lucene 8 and older (JavaCC 5) wrote lexical errors as `... after : "..."`.
 */

import { previewInput } from '../../errors/index.js';

/** A query string that Lucene's classic QueryParser would reject. */
export class QueryStringSyntaxError extends Error {
  override readonly name = 'QueryStringSyntaxError';
  /** The whole query string, as given. */
  readonly query: string;
  /** 0-based offset of the offending token or character (query.length at the end of input). */
  readonly position: number;

  /** `reason` is the text after "Cannot parse '<query>': " (QueryParserBase.parse adds that prefix). */
  constructor(query: string, position: number, reason: string) {
    super(`Cannot parse '${previewInput(query)}': ${reason}`);
    this.query = query;
    this.position = position;
  }
}

/** JavaCC's addEscapes / add_escapes: how token images are quoted inside messages. */
export function addEscapes(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    switch (c) {
      case '\b': out += '\\b'; break;
      case '\t': out += '\\t'; break;
      case '\n': out += '\\n'; break;
      case '\f': out += '\\f'; break;
      case '\r': out += '\\r'; break;
      case '"': out += '\\"'; break;
      case "'": out += "\\'"; break;
      case '\\': out += '\\\\'; break;
      default: {
        const code = s.charCodeAt(i);
        out += code < 0x20 || code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : c;
      }
    }
  }
  return out;
}

/**
 * The error QueryParserTokenManager.getNextToken throws when no token matches at `start`, after
 * its NFA read `read` chars. It then peeks one more char: at the end of input it reports `<EOF>`
 * (even when a bad char was read, e.g. `a^b`), one column further; otherwise it reports the last
 * char read. Columns are FastCharStream offsets, so they look 1-based here and 0-based in parse
 * errors. The "(in lexical state N)" suffix is printed for every state but Boost (0).
 */
export function lexicalError(query: string, start: number, read: number, lexState: number): QueryStringSyntaxError {
  const end = start + read; // the stream position after the last char read
  const lastChar = query.charCodeAt(end - 1);
  let line = 1;
  let column = end;
  let encountered: string;
  let after: string;
  let position: number;
  if (end >= query.length) {
    encountered = '<EOF>';
    after = read > 1 ? query.slice(start, end) : '';
    if (lastChar === 0x0a || lastChar === 0x0d) {
      line++;
      column = 0;
    } else {
      column++;
    }
    position = query.length;
  } else {
    encountered = `'${addEscapes(String.fromCharCode(lastChar))}' (${lastChar}),`;
    after = read > 1 ? query.slice(start, end - 1) : '';
    position = end - 1;
  }
  const reason =
    `Lexical error at line ${line}, column ${column}.  Encountered: ${encountered}` +
    (after.length === 0 ? '' : ` after prefix "${addEscapes(after)}"`) +
    (lexState === 0 ? '' : ` (in lexical state ${lexState})`);
  return new QueryStringSyntaxError(query, position, reason);
}
