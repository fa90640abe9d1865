/** dsl/suggest — the `suggest` member of a search request: parse-suggest.ts and the node types. */
export * from './suggest-nodes.js';
export { parseSuggest } from './parse-suggest.js';
export { REGEXP_FLAGS } from './completion.js';
