/**
 * dsl/script — the Painless subset: the script object of a request (script-spec.ts), its compile
 * for one index (lexer → parser → analyzer, compile-script.ts) into a typed expression of plain data
 * (script-expr.ts) that workers evaluate (search/script/), and ES's script_exception shapes.
 */
export * from './script-spec.js';
export * from './script-expr.js';
export { compileScript, MAX_SCRIPT_SIZE } from './compile-script.js';
export { type AnalysisContext, type FieldAccess, type VectorAccess } from './analyzer.js';
export { boxedName } from './java-types.js';
export { runtimeError, ScriptRuntimeFailure } from './script-failure.js';
export { MAX_CHAIN as MAX_SCRIPT_CHAIN, MAX_DEPTH as MAX_SCRIPT_DEPTH } from './parser.js';
