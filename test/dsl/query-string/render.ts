/**
 * Test helper: prints a query_string AST roughly as Lucene's Query.toString does, so operator tests
 * read like Lucene's own (QueryParserTestBase: "a AND b OR c" → "+a +b c").
 * Terms print as `field:text`, a multiTerm run as «text», a bool as (…), a boost as ^n.
 */
import type { QsBool, QsClause, QsNode } from '../../../src/dsl/query-string/index.js';

const PREFIX = { must: '+', should: '', must_not: '-' } as const;

function clause(c: QsClause): string {
  return PREFIX[c.occur] + render(c.node);
}

export function render(node: QsNode): string {
  const f = 'field' in node && node.field !== null && node.kind !== 'exists' ? `${node.field}:` : '';
  let s: string;
  switch (node.kind) {
    case 'term':
      s = f + (node.multiTerm ? `«${node.text}»` : node.text) + (node.fuzziness === null ? '' : `~${node.fuzziness}`);
      break;
    case 'phrase': s = `${f}"${node.text}"${node.slop === null ? '' : `~${node.slop}`}`; break;
    case 'prefix': s = `${f}${node.text}*`; break;
    case 'wildcard': s = f + node.pattern; break;
    case 'regexp': s = `${f}/${node.pattern}/`; break;
    case 'range':
      s = `${f}${node.includeLower ? '[' : '{'}${node.lower ?? '*'} TO ${node.upper ?? '*'}${node.includeUpper ? ']' : '}'}`;
      break;
    case 'exists': s = `_exists_:${node.field}`; break;
    case 'match_all': s = '*:*'; break;
    case 'bool': s = `(${node.clauses.map(clause).join(' ')})`; break;
  }
  return node.boost === null ? s : `${s}^${node.boost}`;
}

/** The top-level bool without its parentheses (plus its boost, if any). */
export function renderTop(q: QsBool): string {
  const s = q.clauses.map(clause).join(' ');
  return q.boost === null ? s : `(${s})^${q.boost}`;
}
