/**
 * Compiling a script for one index, as ES's ScriptService.compile does on each shard: the language
 * (painless, or Lucene's `expression`; ES's other script languages are refused), the source's size (`script.max_size_in_bytes`,
 * 65535, counted in chars as Java's String.length), then the Painless subset's parse and semantic
 * pass. Failures inside the source are `script_exception` "compile error" with ES's script stack.
 */
import { IllegalArgumentError, previewInput } from '../../errors/index.js';
import { analyzeScript, type AnalysisContext } from './analyzer.js';
import { parseScript } from './parser.js';
import { compileError, expressionCompileError, ScriptCompileFailure } from './script-failure.js';
import { analyzeExpression, ExpressionParseFailure } from './expression-analyzer.js';
import type { CompiledScript } from './script-expr.js';
import type { ScriptSpec } from './script-spec.js';

/** ES's `script.max_size_in_bytes` default. */
export const MAX_SCRIPT_SIZE = 65535;

export function compileScript(spec: ScriptSpec, ctx: AnalysisContext): CompiledScript {
  if (spec.lang !== 'painless' && spec.lang !== 'expression') throw new IllegalArgumentError(`script_lang not supported [${previewInput(spec.lang)}]`);
  if (spec.lang === 'expression' && ctx.returns === 'String') throw new IllegalArgumentError('expression engine does not know how to handle script context [string_sort]');
  if (spec.lang === 'expression' && ctx.returns === 'boolean') throw new IllegalArgumentError('[expression] filter scripts are not supported by this server yet');
  if (spec.source.length > MAX_SCRIPT_SIZE) {
    throw new IllegalArgumentError(`exceeded max allowed inline script size in bytes [${MAX_SCRIPT_SIZE}] with size [${spec.source.length}] for script [${previewInput(spec.source)}]`);
  }
  if (spec.lang === 'expression') {
    try {
      const { expr, needsScore } = analyzeExpression(parseScript(spec.source), ctx);
      return { source: spec.source, lang: spec.lang, expr, needsScore };
    } catch (e) {
      if (e instanceof ScriptCompileFailure || e instanceof ExpressionParseFailure) throw expressionCompileError(spec.source, e.message);
      throw e;
    }
  }
  try {
    const { expr, needsScore } = analyzeScript(parseScript(spec.source), ctx);
    return { source: spec.source, lang: spec.lang, expr, needsScore };
  } catch (e) {
    if (e instanceof ScriptCompileFailure) throw compileError(spec.source, spec.lang, e);
    throw e;
  }
}
