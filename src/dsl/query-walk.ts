/**
 * Walking a query tree by its compound clauses (bool, dis_max, constant_score, boosting,
 * function_score, script_score, a knn query's filter): the coordinator's rewrites before planning (model texts →
 * token weights, kNN searches → their global top k) visit and replace leaves without a switch of
 * their own.
 */
import type { QueryNode } from './query-nodes.js';

/**
 * Whether `test` holds for `node` or any clause beneath it, depth first. Allocates nothing: it runs
 * on every search (is there a kNN search to resolve?), so no child arrays are spread or closures made.
 */
export function someClause(node: QueryNode, test: (clause: QueryNode) => boolean): boolean {
  if (test(node)) return true;
  switch (node.kind) {
    case 'bool':
      return someOf(node.must, test) || someOf(node.should, test) || someOf(node.filter, test) || someOf(node.mustNot, test);
    case 'dis_max': return someOf(node.queries, test);
    case 'constant_score': return someClause(node.filter, test);
    case 'boosting': return someClause(node.positive, test) || someClause(node.negative, test);
    case 'function_score':
      if (someClause(node.query, test)) return true;
      for (const f of node.functions) if (f.filter && someClause(f.filter, test)) return true;
      return false;
    case 'script_score': return someClause(node.query, test);
    case 'knn': return someOf(node.filter, test);
    default: return false;
  }
}

function someOf(clauses: readonly QueryNode[], test: (clause: QueryNode) => boolean): boolean {
  for (let i = 0; i < clauses.length; i++) if (someClause(clauses[i], test)) return true;
  return false;
}

/** Visits `node` and every clause beneath it, depth first. */
export function forEachClause(node: QueryNode, visit: (clause: QueryNode) => void): void {
  someClause(node, (c) => {
    visit(c);
    return false;
  });
}

/**
 * Visits every clause beneath `node`, then `node` itself (post-order), children in the order ES's
 * query builders build them (AbstractQueryBuilder.toQuery builds a compound query's clauses before
 * it registers the compound's own `_name`): bool must, must_not, should, filter; function_score's
 * function filters (ES builds none for a `match_all` one), then its query.
 */
export function forEachClausePostOrder(node: QueryNode, visit: (clause: QueryNode) => void): void {
  switch (node.kind) {
    case 'bool':
      for (const list of [node.must, node.mustNot, node.should, node.filter]) for (const c of list) forEachClausePostOrder(c, visit);
      break;
    case 'dis_max': for (const c of node.queries) forEachClausePostOrder(c, visit); break;
    case 'constant_score': forEachClausePostOrder(node.filter, visit); break;
    case 'boosting':
      forEachClausePostOrder(node.positive, visit);
      forEachClausePostOrder(node.negative, visit);
      break;
    case 'function_score':
      for (const f of node.functions) if (f.filter && f.filter.kind !== 'match_all') forEachClausePostOrder(f.filter, visit);
      forEachClausePostOrder(node.query, visit);
      break;
    case 'knn': for (const c of node.filter) forEachClausePostOrder(c, visit); break;
    default: break;
  }
  visit(node);
}

/**
 * The tree with every clause for which `replace` returns a node replaced by it (its own children
 * are not visited); compound clauses are rebuilt only where something beneath them changed, so an
 * untouched tree is returned as the same object.
 */
export function mapClauses(node: QueryNode, replace: (clause: QueryNode) => QueryNode | undefined): QueryNode {
  const r = replace(node);
  if (r !== undefined) return r;
  const map = (c: QueryNode) => mapClauses(c, replace);
  const mapAll = (cs: readonly QueryNode[]) => {
    const out = cs.map(map);
    return out.every((c, i) => c === cs[i]) ? cs : out;
  };
  switch (node.kind) {
    case 'bool': {
      const must = mapAll(node.must);
      const should = mapAll(node.should);
      const filter = mapAll(node.filter);
      const mustNot = mapAll(node.mustNot);
      return must === node.must && should === node.should && filter === node.filter && mustNot === node.mustNot ? node : { ...node, must, should, filter, mustNot };
    }
    case 'dis_max': {
      const queries = mapAll(node.queries);
      return queries === node.queries ? node : { ...node, queries };
    }
    case 'constant_score': {
      const filter = map(node.filter);
      return filter === node.filter ? node : { ...node, filter };
    }
    case 'boosting': {
      const positive = map(node.positive);
      const negative = map(node.negative);
      return positive === node.positive && negative === node.negative ? node : { ...node, positive, negative };
    }
    case 'function_score': {
      const query = map(node.query);
      const functions = node.functions.map((f) => (f.filter ? { ...f, filter: map(f.filter) } : f));
      const same = query === node.query && functions.every((f, i) => f.filter === node.functions[i].filter);
      return same ? node : { ...node, query, functions };
    }
    case 'script_score': {
      const query = map(node.query);
      return query === node.query ? node : { ...node, query };
    }
    case 'knn': {
      const filter = mapAll(node.filter);
      return filter === node.filter ? node : { ...node, filter };
    }
    default:
      return node;
  }
}
