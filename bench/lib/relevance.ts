/**
 * The IR evaluator scenarios score runs with; it lives in test/support/trec-eval.ts because the
 * relevance tests use it too (tests never import bench/).
 */
export * from '../../test/support/trec-eval.js';
