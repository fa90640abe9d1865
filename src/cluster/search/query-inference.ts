/**
 * Encodes the query texts of `text_expansion` / `sparse_vector` clauses once on the coordinator,
 * before planning (ES's async query rewrite to weighted tokens): every shard then gets the same
 * token weights, and the model runs once per distinct (model, text) however many shards and
 * indices the search targets. Errors are the inference service's (404 unknown model, 409 not
 * deployed, 429 queue full), thrown before any shard is searched, as in ES.
 */
import { forEachClause, mapClauses, type QueryNode, type WeightedToken } from '../../dsl/index.js';
import type { SparseInference } from '../../ml/index.js';

interface Pending {
  readonly model: string;
  readonly text: string;
}

function collect(node: QueryNode, out: Pending[]): void {
  forEachClause(node, (c) => {
    if (c.kind === 'text_expansion') out.push({ model: c.modelId, text: c.modelText });
    else if (c.kind === 'sparse_vector' && c.queryVector === null && c.inferenceId !== null && c.query !== null) out.push({ model: c.inferenceId, text: c.query });
  });
}

function fill(node: QueryNode, vectors: ReadonlyMap<string, WeightedToken[]>): QueryNode {
  const key = (model: string, text: string) => `${model}\u0000${text}`;
  return mapClauses(node, (c) => {
    if (c.kind === 'text_expansion') return { ...c, tokens: vectors.get(key(c.modelId, c.modelText)) ?? null };
    if (c.kind === 'sparse_vector' && c.queryVector === null && c.inferenceId !== null && c.query !== null) {
      return { ...c, queryVector: vectors.get(key(c.inferenceId, c.query)) ?? null };
    }
    return undefined;
  });
}

/**
 * The query with every model text replaced by its token weights: the same tree, synchronously, when
 * it has none (most searches: no promise to await, no microtask turn), else a promise of the new one.
 */
export function resolveQueryInference(query: QueryNode | null, inference: SparseInference | null): QueryNode | null | Promise<QueryNode | null> {
  // No array for the common search: it has no model to call, or its query no model text.
  if (query === null || inference === null) return query;
  const pending: Pending[] = [];
  collect(query, pending);
  return pending.length === 0 ? query : encodeTexts([query], pending, inference).then((qs) => qs[0]);
}

/**
 * Several queries of one search (its query and its rescore queries) resolved together: one
 * inference call per model for all their texts, each distinct text encoded once. The same array
 * when none has a model text.
 */
export function resolveQueriesInference<Q extends QueryNode | null>(queries: readonly Q[], inference: SparseInference | null): readonly Q[] | Promise<readonly Q[]> {
  if (inference === null) return queries;
  const pending: Pending[] = [];
  for (const q of queries) if (q !== null) collect(q, pending);
  return pending.length === 0 ? queries : encodeTexts(queries, pending, inference);
}

async function encodeTexts<Q extends QueryNode | null>(queries: readonly Q[], pending: readonly Pending[], inference: SparseInference): Promise<readonly Q[]> {
  // One inference call per model, with each distinct text once.
  const byModel = new Map<string, string[]>();
  for (const p of pending) {
    const texts = byModel.get(p.model) ?? [];
    if (!texts.includes(p.text)) texts.push(p.text);
    byModel.set(p.model, texts);
  }
  const vectors = new Map<string, WeightedToken[]>();
  await Promise.all([...byModel].map(async ([model, texts]) => {
    const encoded = await inference.infer(model, texts, { purpose: 'query' });
    texts.forEach((text, i) => {
      const v = encoded[i];
      vectors.set(`${model}\u0000${text}`, v.tokens.map((token, j) => ({ token, weight: v.weights[j] })));
    });
  }));
  return queries.map((q) => (q === null ? q : fill(q, vectors) as Q));
}
