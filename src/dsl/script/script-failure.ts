/**
 * Script errors as ES renders them (ScriptException, 400): `script_exception` with `script_stack`
 * (the snippet around the failing offset and a `^---- HERE` pointer line), `script`, `lang`,
 * `position` {offset, start, end} and the Java exception as `caused_by`. A compile error's snippet
 * is ±25 characters around the offset (PainlessScriptEngine.convertToScriptException); a runtime
 * error's is its statement (PainlessScript.convertToScriptException) — the whole source for the
 * single-statement scripts this server runs — cut to the compile form's window when long. The
 * `script` member is the source, quoted by its previewInput prefix: a 64 KB script is not echoed
 * back in each of the several places an error body repeats it.
 */
import { EsError, previewInput } from '../../errors/index.js';

/** A compile error inside the script subset: where, and the Java exception Painless would throw. */
export class ScriptCompileFailure extends Error {
  constructor(readonly at: number, readonly causeType: string, readonly causeReason: string) {
    super(causeReason);
  }
}

/** Java's exception at run time, thrown by the evaluator with the offset of the failing node. */
export class ScriptRuntimeFailure extends Error {
  constructor(readonly at: number, readonly causeType: string, readonly causeReason: string) {
    super(causeReason);
  }
}

/** PainlessScriptEngine's "very simple heuristic: +/- 25 chars". */
const WINDOW = 25;
/** A runtime snippet longer than this is shown as the compile form's window instead. */
const MAX_STATEMENT_SNIPPET = 200;

function windowed(source: string, offset: number): { stack: string[]; start: number; end: number } {
  const start = Math.max(0, offset - WINDOW);
  const end = Math.min(source.length, offset + WINDOW);
  const snippet = `${start > 0 ? '... ' : ''}${source.slice(start, end)}${end < source.length ? ' ...' : ''}`;
  const pointer = `${start > 0 ? '    ' : ''}${' '.repeat(offset - start)}^---- HERE`;
  return { stack: [snippet, pointer], start, end };
}

function scriptException(reason: string, source: string, lang: string, stack: string[], position: { offset: number; start: number; end: number }, cause: EsError): EsError {
  return new EsError('script_exception', reason, 400, {
    metadata: { script_stack: stack, script: previewInput(source), lang, position },
    cause,
  });
}

export function compileError(source: string, lang: string, failure: ScriptCompileFailure): EsError {
  const offset = Math.max(0, Math.min(failure.at, source.length));
  const { stack, start, end } = windowed(source, offset);
  return scriptException('compile error', source, lang, stack, { offset, start, end }, new EsError(failure.causeType, failure.causeReason, 400));
}

export function runtimeError(source: string, lang: string, failure: ScriptRuntimeFailure): EsError {
  const offset = Math.max(0, Math.min(failure.at, source.length));
  const cause = new EsError(failure.causeType, failure.causeReason, failure.causeType === 'illegal_state_exception' ? 500 : 400);
  if (source.length > MAX_STATEMENT_SNIPPET) {
    const { stack, start, end } = windowed(source, offset);
    return scriptException('runtime error', source, lang, stack, { offset, start, end }, cause);
  }
  const stack = [source, `${' '.repeat(offset)}^---- HERE`];
  return scriptException('runtime error', source, lang, stack, { offset, start: 0, end: source.length }, cause);
}

/** ExpressionScriptEngine's compile error: the source and a pointer, no position; the ParseException as the cause. */
export function expressionCompileError(source: string, reason: string): EsError {
  return new EsError('script_exception', 'compile error', 400, {
    metadata: { script_stack: [previewInput(source), '^---- HERE'], script: previewInput(source), lang: 'expression' },
    cause: new EsError('parse_exception', reason, 400),
  });
}
