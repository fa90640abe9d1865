/**
 * Painless's semantic pass over the subset (ES DefaultSemanticAnalysisPhase, AnalyzerCaster,
 * DefMath): types every node as Java would and reports what Painless reports at compile time.
 *
 * `params` and `doc` values are `def` in Painless: an operator on them is resolved when the script
 * runs, so a type error there is a runtime error (class_cast_exception with the boxed class names),
 * not a compile error. Here their run-time types are already known — params are constants, and the
 * mapping says what each field's doc values are — so such an operator is typed now, and one that
 * would fail becomes a `fail` node that raises Painless's runtime error when (and only if) it runs.
 * Operators on static types that do not fit are compile errors, as in Painless.
 *
 * java.lang.Math is Painless's whitelist of it: every function takes and returns double (Painless
 * has no overloading by type), `round` returns long.
 */
import { mix32 } from '../../common/java-hash.js';
import { ScriptCompileFailure } from './script-failure.js';
import { boxedName, checkcast, isNumeric, paramConst, promote, staticName, unboxedName } from './java-types.js';
import { numericLiteral } from './numeric-literal.js';
import type { SyntaxNode } from './parser.js';
import type { DatePart, DocValueType, NumericType, ScriptCause, ScriptExpr, StringMethod, ValueType, VectorFunction } from './script-expr.js';

/** What `doc['name']` is for this index: its doc values' type, or the error reading it raises. */
export type FieldAccess = { readonly vt: DocValueType } | { readonly error: ScriptCause };

/** A dense_vector field for the vector functions: its dims (null before any vector) and element type, or the error using it raises. */
export type VectorAccess = { readonly dims: number | null; readonly element: 'float' | 'byte' } | { readonly error: ScriptCause };

export interface AnalysisContext {
  readonly params: Readonly<Record<string, unknown>>;
  readonly field: (name: string) => FieldAccess;
  /** Scripts that see a score (score and sort scripts): `_score`, randomScore, the score functions. */
  readonly score: boolean;
  /** What the script's context returns (ScoreScript and NumberSortScript a double, StringSortScript a String, FilterScript a boolean, FieldScript any value). */
  readonly returns: 'double' | 'String' | 'boolean' | 'any';
  /** ES's salt for randomScore: the index name's Java hashCode shifted left by 10 (shard 0's). */
  readonly randomSalt: number;
  /** Whether the index maps `name` (`doc.containsKey`); absent: every name is looked up through `field`. */
  readonly mapped?: (name: string) => boolean;
  /** A dense_vector field for cosineSimilarity, dotProduct, l1norm and l2norm; absent: no vector functions. */
  readonly vectorField?: (name: string) => VectorAccess;
}

/** A value node, whether Painless sees it as `def`, and whether it is a literal (constant folding). */
interface Val {
  readonly kind: 'value';
  readonly e: ScriptExpr;
  readonly dyn: boolean;
  readonly literal: boolean;
}

/** Names that are not values: `doc`, `doc[field]`, `params`, `Math`. */
type Analyzed =
  | Val
  | { readonly kind: 'doc' }
  | { readonly kind: 'docValues'; readonly field: string; readonly access: FieldAccess; readonly at: number }
  | { readonly kind: 'math' };

const compile = (at: number, type: string, reason: string) => new ScriptCompileFailure(at, type, reason);
const unsupported = (what: string, at: number) =>
  compile(at, 'illegal_argument_exception', `[${what}] is not supported by this server yet`);

function val(e: ScriptExpr, dyn: boolean, literal = false): Val {
  return { kind: 'value', e, dyn, literal };
}

function fail(t: ValueType, operands: readonly ScriptExpr[], at: number, type: string, reason: string): ScriptExpr {
  return { k: 'fail', t, operands, cause: { type, reason }, at };
}

const MATH_1 = new Set(['log', 'log10', 'sqrt', 'exp', 'abs', 'floor', 'ceil', 'round', 'signum', 'sin', 'cos', 'tan', 'atan', 'asin', 'acos', 'cbrt', 'log1p', 'expm1', 'sinh', 'cosh', 'tanh', 'toRadians', 'toDegrees', 'rint']);
const MATH_2 = new Set(['pow', 'min', 'max', 'atan2', 'hypot']);
/** ScoreScriptUtils' static functions and their arities. */
const SCORE_FUNCTIONS: Record<string, number> = { saturation: 2, sigmoid: 3, decayNumericLinear: 5, decayNumericExp: 5, decayNumericGauss: 5 };
const VECTOR_FUNCTIONS = new Set<string>(['cosineSimilarity', 'dotProduct', 'l1norm', 'l2norm']);
/** String methods: arity and result type. */
const STRING_METHODS: Record<string, readonly [number, 'int' | 'boolean' | 'String']> = {
  length: [0, 'int'], isEmpty: [0, 'boolean'], equals: [1, 'boolean'], contains: [1, 'boolean'], startsWith: [1, 'boolean'],
  endsWith: [1, 'boolean'], toLowerCase: [0, 'String'], toUpperCase: [0, 'String'], trim: [0, 'String'],
};
const DATE_PARTS = new Set<string>(['getYear', 'getMonthValue', 'getDayOfMonth', 'getDayOfYear', 'getHour', 'getMinute', 'getSecond']);

/** Java's equals over JSON values: maps by their entries whatever their order, lists by position. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const ka = Object.keys(a);
  const bo = b as Record<string, unknown>;
  return ka.length === Object.keys(bo).length && ka.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual((a as Record<string, unknown>)[k], bo[k]));
}

class Analyzer {
  needsScore = false;

  constructor(private readonly ctx: AnalysisContext) {}

  value(n: SyntaxNode): Val {
    const a = this.node(n);
    if (a.kind === 'value') return a;
    if (a.kind === 'docValues') throw unsupported(`doc['${a.field}'] without .value`, a.at);
    throw compile(n.at, 'illegal_argument_exception', a.kind === 'math' ? 'value required: instead found unexpected type [java.lang.Math]' : 'value required: instead found unexpected type [doc]');
  }

  node(n: SyntaxNode): Analyzed {
    switch (n.k) {
      case 'num': return val(numericLiteral(n), false, true);
      case 'str': return val({ k: 'const', t: 'String', v: n.value }, false, true);
      case 'bool': return val({ k: 'const', t: 'boolean', v: n.value }, false, true);
      case 'null': return val({ k: 'const', t: 'null', v: null }, false, true);
      case 'id': return this.identifier(n.name, n.at);
      case 'member': return this.member(n);
      case 'index': return this.index(n);
      case 'call': return this.call(n);
      case 'unary': return this.unary(n);
      case 'cast': return this.cast(n.type, this.value(n.e), n.at);
      case 'binary': return this.binary(n);
      case 'cond': return this.conditional(n);
    }
  }

  private identifier(name: string, at: number): Analyzed {
    switch (name) {
      case 'doc': return { kind: 'doc' };
      case 'params': return val({ k: 'const', t: 'map', v: this.ctx.params }, true);
      case 'Math': return { kind: 'math' };
      case '_score':
        if (!this.ctx.score) break;
        this.needsScore = true;
        return val({ k: 'score', t: 'double' }, false);
    }
    throw compile(at, 'illegal_argument_exception', `cannot resolve symbol [${name}]`);
  }

  /** `params.x`, `params['x']`, a nested param map's member: constants, `null` when absent (Map.get). */
  private mapGet(target: Val, key: Val, at: number): Val {
    if (target.e.k !== 'const' || key.e.k !== 'const') throw unsupported('a map read by a computed key', at);
    const map = target.e.v as Record<string, unknown>;
    const k = String(key.e.v);
    return val(paramConst(Object.prototype.hasOwnProperty.call(map, k) ? map[k] : null), true);
  }

  private member(n: Extract<SyntaxNode, { k: 'member' }>): Analyzed {
    const target = this.node(n.target);
    if (target.kind === 'doc') return this.docField(n.name, n.at);
    if (target.kind === 'math') {
      if (n.name === 'E') return val({ k: 'const', t: 'double', v: Math.E }, false, true);
      if (n.name === 'PI') return val({ k: 'const', t: 'double', v: Math.PI }, false, true);
      throw compile(n.at, 'illegal_argument_exception', `static field [java.lang.Math, ${n.name}] not found`);
    }
    if (target.kind === 'docValues') {
      if (n.name === 'value') return this.docRead(target, 'value', null, n.at);
      if (n.name === 'empty') return this.docRead(target, 'empty', null, n.at);
      if (n.name === 'length') return this.docRead(target, 'size', null, n.at);
      throw unsupported(`doc['${target.field}'].${n.name}`, n.at);
    }
    if (target.e.t === 'map') return this.mapGet(target, val({ k: 'const', t: 'String', v: n.name }, false), n.at);
    return this.valueMember(target, n.name, [], n.at, false);
  }

  private index(n: Extract<SyntaxNode, { k: 'index' }>): Analyzed {
    const target = this.node(n.target);
    if (target.kind === 'doc') {
      const key = this.value(n.index);
      if (key.e.k !== 'const' || key.e.t !== 'String') throw unsupported('doc[] with a field name that is not a string constant', n.index.at);
      return this.docField(key.e.v as string, n.at);
    }
    if (target.kind === 'docValues') return this.docRead(target, 'value', this.value(n.index), n.at);
    if (target.kind === 'math') throw compile(n.at, 'illegal_argument_exception', 'value required: instead found unexpected type [java.lang.Math]');
    if (target.e.t === 'map') return this.mapGet(target, this.value(n.index), n.at);
    if (target.e.t === 'list' && target.e.k === 'const') {
      const i = this.value(n.index);
      if (i.e.k !== 'const' || i.e.t !== 'int') throw unsupported('a list read by a computed index', n.at);
      const list = target.e.v as unknown[];
      const at = i.e.v as number;
      if (at < 0 || at >= list.length) return val(fail('null', [], n.at, 'index_out_of_bounds_exception', `Index ${at} out of bounds for length ${list.length}`), true);
      return val(paramConst(list[at]), true);
    }
    throw unsupported(`[] on ${staticName(target.e.t, target.dyn)}`, n.at);
  }

  private docField(name: string, at: number): Analyzed {
    return { kind: 'docValues', field: name, access: this.ctx.field(name), at };
  }

  /** A read of doc values; an unmapped or unreadable field fails where `doc[...]` is (LeafDocLookup.get). */
  private docRead(d: Extract<Analyzed, { kind: 'docValues' }>, read: 'value' | 'size' | 'empty', index: Val | null, at: number): Val {
    const t: ValueType = read === 'size' ? 'int' : read === 'empty' ? 'boolean' : 'error' in d.access ? 'null' : d.access.vt;
    if ('error' in d.access) return val(fail(t, [], d.at, d.access.error.type, d.access.error.reason), true);
    let i: ScriptExpr | null = null;
    if (index !== null) {
      if (index.e.t !== 'int') {
        if (!index.dyn) throw compile(at, 'class_cast_exception', `Cannot cast from [${staticName(index.e.t, false)}] to [int].`);
        return val(fail(t, [index.e], at, 'class_cast_exception', checkcast(index.e.t, 'java.lang.Integer')), true);
      }
      i = index.e;
    }
    return val({ k: 'doc', t, field: d.field, vt: d.access.vt, read, index: i, at }, true);
  }

  private call(n: Extract<SyntaxNode, { k: 'call' }>): Analyzed {
    if (n.target === null) return this.freeFunction(n);
    const target = this.node(n.target);
    if (target.kind === 'math') return this.math(n);
    if (target.kind === 'doc') {
      if (n.name === 'get' && n.args.length === 1) return this.index({ k: 'index', target: n.target, index: n.args[0], at: n.at });
      if (n.name === 'containsKey' && n.args.length === 1) {
        // LeafDocLookup.containsKey: whether the mapping has the field.
        const key = this.value(n.args[0]);
        if (key.e.k !== 'const' || key.e.t !== 'String') throw unsupported('doc.containsKey with a field name that is not a string constant', n.args[0].at);
        const name = key.e.v as string;
        const mapped = this.ctx.mapped ? this.ctx.mapped(name) : !('error' in this.ctx.field(name));
        return val({ k: 'const', t: 'boolean', v: mapped }, false);
      }
      throw unsupported(`doc.${n.name}()`, n.at);
    }
    if (target.kind === 'docValues') {
      if (n.name === 'getValue' && n.args.length === 0) return this.docRead(target, 'value', null, n.at);
      if (n.name === 'get' && n.args.length === 1) return this.docRead(target, 'value', this.value(n.args[0]), n.at);
      if (n.name === 'size' && n.args.length === 0) return this.docRead(target, 'size', null, n.at);
      if (n.name === 'isEmpty' && n.args.length === 0) return this.docRead(target, 'empty', null, n.at);
      throw unsupported(`doc['${target.field}'].${n.name}()`, n.at);
    }
    if (target.e.t === 'map' && n.name === 'get' && n.args.length === 1) return this.mapGet(target, this.value(n.args[0]), n.at);
    return this.valueMember(target, n.name, n.args, n.at, true);
  }

  /** Members of values: a date's millis and instant, an instant's epoch millis, a constant list's size. */
  private valueMember(target: Val, name: string, args: readonly SyntaxNode[], at: number, isCall: boolean): Val {
    const t = target.e.t;
    const getter = isCall && args.length === 0;
    if (t === 'date' && ((name === 'millis' && !isCall) || (name === 'getMillis' && getter))) return val({ k: 'retype', t: 'long', e: target.e }, target.dyn);
    if (t === 'date' && name === 'toInstant' && getter) return val({ k: 'retype', t: 'instant', e: target.e }, target.dyn);
    if (t === 'instant' && name === 'toEpochMilli' && getter) return val({ k: 'retype', t: 'long', e: target.e }, target.dyn);
    if (t === 'list' && target.e.k === 'const' && name === 'size' && getter) return val({ k: 'const', t: 'int', v: (target.e.v as unknown[]).length }, true);
    if (t === 'date' && getter && DATE_PARTS.has(name)) return val({ k: 'datePart', t: 'int', part: name as DatePart, e: target.e }, target.dyn);
    if ((t === 'String' || (t === 'null' && target.dyn)) && isCall && Object.prototype.hasOwnProperty.call(STRING_METHODS, name)) return this.stringMethod(target, name as StringMethod, args, at);
    if (t === 'null' && target.dyn) return val(fail('null', [target.e], at, 'null_pointer_exception', `Cannot invoke "Object.getClass()" because "receiver" is null`), true);
    throw unsupported(`${staticName(t, false)}.${name}${isCall ? '()' : ''}`, at);
  }

  /** java.lang.String's methods the subset runs; their argument a String where Java wants one. */
  private stringMethod(target: Val, fn: StringMethod, args: readonly SyntaxNode[], at: number): Val {
    const [arity, t] = STRING_METHODS[fn];
    if (args.length !== arity) throw unsupported(`java.lang.String.${fn} with ${args.length} arguments`, at);
    let arg: ScriptExpr | null = null;
    if (arity === 1) {
      const a = this.value(args[0]);
      arg = fn === 'equals' ? a.e : this.cast('String', a, args[0].at).e;
    }
    return val({ k: 'str', t, fn, target: target.e, arg, at }, target.dyn);
  }

  private math(n: Extract<SyntaxNode, { k: 'call' }>): Val {
    const arity = MATH_1.has(n.name) ? 1 : MATH_2.has(n.name) ? 2 : -1;
    if (arity !== n.args.length) throw compile(n.at, 'illegal_argument_exception', `static method [java.lang.Math, ${n.name}/${n.args.length}] not found`);
    const args = n.args.map((a) => this.toDouble(this.value(a), a.at));
    return val({ k: 'fn', t: n.name === 'round' ? 'long' : 'double', fn: n.name, args }, false);
  }

  private freeFunction(n: Extract<SyntaxNode, { k: 'call' }>): Val {
    const arity = this.ctx.score ? SCORE_FUNCTIONS[n.name] : undefined;
    if (arity === n.args.length) {
      return val({ k: 'fn', t: 'double', fn: n.name, args: n.args.map((a) => this.toDouble(this.value(a), a.at)) }, false);
    }
    if (this.ctx.score && n.name === 'randomScore' && (n.args.length === 1 || n.args.length === 2)) return this.randomScore(n);
    if (this.ctx.score && VECTOR_FUNCTIONS.has(n.name) && n.args.length === 2) return this.vectorFunction(n);
    throw compile(n.at, 'illegal_argument_exception', `Unknown call [${n.name}] with [${n.args.length}] arguments.`);
  }

  /** randomScore(seed[, field]): the seed must be an int known before the search runs (a literal or a param). */
  private randomScore(n: Extract<SyntaxNode, { k: 'call' }>): Val {
    const seed = this.value(n.args[0]);
    if (seed.e.t !== 'int') {
      if (!seed.dyn) throw compile(n.args[0].at, 'class_cast_exception', `Cannot cast from [${staticName(seed.e.t, false)}] to [int].`);
      return val(fail('double', [seed.e], n.at, 'class_cast_exception', checkcast(seed.e.t, 'java.lang.Integer')), true);
    }
    if (seed.e.k !== 'const') throw unsupported('randomScore with a seed computed per document', n.args[0].at);
    const saltedSeed = mix32(this.ctx.randomSalt ^ (seed.e.v as number));
    if (n.args.length === 1) return val({ k: 'random', t: 'double', saltedSeed, field: null, vt: null, at: n.at }, false);
    const name = this.value(n.args[1]);
    if (name.e.k !== 'const' || name.e.t !== 'String') {
      if (!name.dyn && name.e.t !== 'String') throw compile(n.args[1].at, 'class_cast_exception', `Cannot cast from [${staticName(name.e.t, false)}] to [java.lang.String].`);
      throw unsupported('randomScore with a field name that is not a string constant', n.args[1].at);
    }
    const access = this.ctx.field(name.e.v as string);
    if ('error' in access) return val(fail('double', [], n.at, access.error.type, access.error.reason), false);
    if (access.vt === 'date') throw unsupported('randomScore on a date field', n.args[1].at);
    return val({ k: 'random', t: 'double', saltedSeed, field: name.e.v as string, vt: access.vt, at: n.at }, false);
  }

  /**
   * cosineSimilarity / dotProduct / l1norm / l2norm(queryVector, 'field'): the query vector a list
   * known before the search (a param), the field a string constant. What ES's function constructors
   * refuse (not a dense_vector, other dims, a byte field's non-byte values) fails when it first runs.
   */
  private vectorFunction(n: Extract<SyntaxNode, { k: 'call' }>): Val {
    const fn = n.name as VectorFunction;
    const qv = this.value(n.args[0]);
    const name = this.value(n.args[1]);
    if (name.e.k !== 'const' || name.e.t !== 'String') throw unsupported(`${fn} with a field name that is not a string constant`, n.args[1].at);
    if (qv.e.k !== 'const' || qv.e.t !== 'list') {
      if (qv.e.k === 'const') return val(fail('double', [], n.at, 'illegal_argument_exception', `Unsupported input object for float vectors: ${boxedName(qv.e.t)}`), true);
      throw unsupported(`${fn} with a query vector computed per document`, n.args[0].at);
    }
    const field = name.e.v as string;
    const access = this.ctx.vectorField?.(field) ?? { error: { type: 'illegal_argument_exception', reason: `No field found for [${field}] in mapping` } };
    if ('error' in access) return val(fail('double', [], n.at, access.error.type, access.error.reason), true);
    const raw = qv.e.v as unknown[];
    const failed = (reason: string) => val(fail('double', [], n.at, 'illegal_argument_exception', reason), true);
    if (raw.some((x) => typeof x !== 'number')) {
      const bad = raw.find((x) => typeof x !== 'number');
      return val(fail('double', [], n.at, 'class_cast_exception', checkcast(paramConst(bad).t, 'java.lang.Number')), true);
    }
    const values = (raw as number[]).map((x) => Math.fround(x));
    if (access.dims !== null && access.dims !== values.length) {
      return failed(`The query vector has a different number of dimensions [${values.length}] than the document vectors [${access.dims}].`);
    }
    // ES sums float squares in double (`queryMagnitude += value * value`, a float product).
    let sumSquares = 0;
    for (const v of values) sumSquares += Math.fround(v * v);
    const magnitude = Math.sqrt(sumSquares);
    if (access.element === 'byte') {
      const bad = values.findIndex((v) => !Number.isInteger(v) || v < -128 || v > 127);
      if (bad >= 0) return failed(`The [byte] element type only supports integers between [-128] and [127] but found [${values[bad]}] at dim [${bad}]`);
      return val({ k: 'vector', t: 'double', fn, field, byte: true, query: values, qvMagnitude: Math.fround(magnitude), at: n.at }, true);
    }
    const mf = Math.fround(magnitude);
    const query = fn === 'cosineSimilarity' ? values.map((v) => Math.fround(v / mf)) : values;
    return val({ k: 'vector', t: 'double', fn, field, byte: false, query, qvMagnitude: mf, at: n.at }, true);
  }

  /** An argument or result cast to double (AnalyzerCaster; def → double at run time: Def.defTodoubleImplicit). */
  toDouble(v: Val, at: number): ScriptExpr {
    if (v.e.t === 'double') return v.e;
    if (isNumeric(v.e.t)) return { k: 'cast', t: 'double', e: v.e };
    if (!v.dyn) throw compile(at, 'class_cast_exception', `Cannot cast from [${staticName(v.e.t, false)}] to [double].`);
    if (v.e.t === 'null') return fail('double', [v.e], at, 'null_pointer_exception', 'Cannot invoke "java.lang.Number.doubleValue()" because "value" is null');
    return fail('double', [v.e], at, 'class_cast_exception', `cannot implicitly cast def [${unboxedName(v.e.t)}] to double`);
  }

  toBoolean(v: Val, at: number): ScriptExpr {
    if (v.e.t === 'boolean') return v.e;
    if (!v.dyn) throw compile(at, 'class_cast_exception', `Cannot cast from [${staticName(v.e.t, false)}] to [boolean].`);
    if (v.e.t === 'null') return fail('boolean', [v.e], at, 'null_pointer_exception', 'Cannot invoke "java.lang.Boolean.booleanValue()" because "value" is null');
    return fail('boolean', [v.e], at, 'class_cast_exception', `cannot implicitly cast def [${unboxedName(v.e.t)}] to boolean`);
  }

  private unary(n: Extract<SyntaxNode, { k: 'unary' }>): Val {
    const v = this.value(n.e);
    if (n.op === '!') return val({ k: 'not', t: 'boolean', e: this.toBoolean(v, n.at) }, v.dyn);
    const t = v.e.t;
    if (!isNumeric(t)) {
      if (!v.dyn) throw compile(n.at, 'class_cast_exception', `Cannot apply [${n.op}] operation to type [${staticName(t, false)}].`);
      return val(fail('null', [v.e], n.at, 'class_cast_exception', `Cannot apply [${n.op}] operation to type [${boxedName(t)}].`), true);
    }
    if (n.op === '+') return val(v.e, v.dyn);
    return val({ k: 'neg', t, e: v.e }, v.dyn, v.literal);
  }

  toStringResult(v: Val, at: number): ScriptExpr {
    return this.cast('String', v, at).e;
  }

  private cast(type: string, v: Val, at: number): Val {
    const from = v.e.t;
    if (type === 'double' || type === 'float' || type === 'long' || type === 'int') {
      if (isNumeric(from)) return val(from === type ? v.e : { k: 'cast', t: type, e: v.e }, false);
      if (!v.dyn) throw compile(at, 'class_cast_exception', `Cannot cast from [${staticName(from, false)}] to [${type}].`);
      return val(fail(type, [v.e], at, 'class_cast_exception', checkcast(from, 'java.lang.Number')), false);
    }
    if (type === 'boolean') return val(this.toBoolean(v, at), false);
    if (type === 'String') {
      if (from === 'String' || from === 'null') return val(v.e, false);
      if (!v.dyn) throw compile(at, 'class_cast_exception', `Cannot cast from [${staticName(from, false)}] to [java.lang.String].`);
      return val(fail('String', [v.e], at, 'class_cast_exception', checkcast(from, 'java.lang.String')), false);
    }
    throw unsupported(`(${type}) casts`, at);
  }

  private binary(n: Extract<SyntaxNode, { k: 'binary' }>): Val {
    if (n.op === '&&' || n.op === '||') {
      const l = this.value(n.l);
      const r = this.value(n.r);
      return val({ k: n.op === '&&' ? 'and' : 'or', t: 'boolean', l: this.toBoolean(l, n.l.at), r: this.toBoolean(r, n.r.at) }, false);
    }
    const l = this.value(n.l);
    const r = this.value(n.r);
    const dyn = l.dyn || r.dyn;
    const lt = l.e.t;
    const rt = r.e.t;
    const mismatch = (): Val => {
      if (!dyn) throw compile(n.at, 'class_cast_exception', `Cannot apply [${n.op}] operation to types [${staticName(lt, l.dyn)}] and [${staticName(rt, r.dyn)}].`);
      if (lt === 'null' || rt === 'null') return val(fail('null', [l.e, r.e], n.at, 'null_pointer_exception', `Cannot invoke "Object.getClass()" because "${lt === 'null' ? 'left' : 'right'}" is null`), true);
      return val(fail('null', [l.e, r.e], n.at, 'class_cast_exception', `Cannot apply [${n.op}] operation to types [${boxedName(lt)}] and [${boxedName(rt)}].`), true);
    };
    if (n.op === '+' && (lt === 'String' || rt === 'String')) {
      // A map or list param rendered per document would cost its size each time: not run.
      if (lt === 'map' || lt === 'list' || rt === 'map' || rt === 'list') throw unsupported('a map or list in a string concatenation', n.at);
      return val({ k: 'concat', t: 'String', l: l.e, r: r.e, at: n.at }, dyn);
    }
    if (n.op === '+' || n.op === '-' || n.op === '*' || n.op === '/' || n.op === '%') {
      if (!isNumeric(lt) || !isNumeric(rt)) return mismatch();
      const t = promote(lt, rt);
      // Constant folding divides literals at compile time: an integer division by zero is a compile error.
      if ((n.op === '/' || n.op === '%') && l.literal && r.literal && (t === 'int' || t === 'long') && r.e.k === 'const' && r.e.v === 0) {
        throw compile(n.at, 'arithmetic_exception', '/ by zero');
      }
      return val({ k: 'arith', t, op: n.op, l: l.e, r: r.e, at: n.at }, dyn);
    }
    const op = n.op as '==' | '!=' | '<' | '<=' | '>' | '>=';
    if (isNumeric(lt) && isNumeric(rt)) return val({ k: 'cmp', t: 'boolean', op, via: promote(lt, rt), l: l.e, r: r.e }, dyn);
    if (op !== '==' && op !== '!=') return mismatch();
    if (lt === rt && (lt === 'map' || lt === 'list') && l.e.k === 'const' && r.e.k === 'const') {
      // Maps and lists are params, known now: compared once (Java's equals), not per document.
      const equal = deepEqual(l.e.v, r.e.v);
      return val({ k: 'const', t: 'boolean', v: op === '==' ? equal : !equal }, dyn);
    }
    if (lt === rt) return val({ k: 'cmp', t: 'boolean', op, via: 'same', l: l.e, r: r.e }, dyn);
    // Painless's == on references is equals(): a def of another type, or null, is simply not equal.
    if (dyn || lt === 'null' || rt === 'null') return val({ k: 'cmp', t: 'boolean', op, via: 'never', l: l.e, r: r.e }, dyn);
    return mismatch();
  }

  private conditional(n: Extract<SyntaxNode, { k: 'cond' }>): Val {
    const c = this.toBoolean(this.value(n.c), n.c.at);
    const a = this.value(n.a);
    const b = this.value(n.b);
    const dyn = a.dyn || b.dyn;
    // A branch that always fails takes the other's type: it never yields a value.
    if (a.e.t === b.e.t || a.e.k === 'fail' || b.e.k === 'fail') return val({ k: 'cond', t: a.e.k === 'fail' ? b.e.t : a.e.t, c, a: a.e, b: b.e }, dyn);
    // null next to a reference type (a String, a date, a map or a list) is a value of that type.
    const reference = (e: ScriptExpr) => !isNumeric(e.t) && e.t !== 'boolean';
    if ((a.e.t === 'null' && reference(b.e)) || (b.e.t === 'null' && reference(a.e))) {
      return val({ k: 'cond', t: a.e.t === 'null' ? b.e.t : a.e.t, c, a: a.e, b: b.e }, dyn);
    }
    if (isNumeric(a.e.t) && isNumeric(b.e.t)) {
      const t = promote(a.e.t, b.e.t);
      const widen = (e: ScriptExpr): ScriptExpr => (e.t === t ? e : { k: 'cast', t, e });
      return val({ k: 'cond', t, c, a: widen(a.e), b: widen(b.e) }, dyn);
    }
    throw unsupported(`a conditional of [${staticName(a.e.t, a.dyn)}] and [${staticName(b.e.t, b.dyn)}]`, n.at);
  }
}

/** The typed expression of a parsed script, and whether it reads `_score`. */
export function analyzeScript(root: SyntaxNode, ctx: AnalysisContext): { expr: ScriptExpr; needsScore: boolean } {
  const analyzer = new Analyzer(ctx);
  const v = analyzer.value(root);
  const expr = ctx.returns === 'double' ? analyzer.toDouble(v, root.at)
    : ctx.returns === 'String' ? analyzer.toStringResult(v, root.at)
      : ctx.returns === 'boolean' ? analyzer.toBoolean(v, root.at) : v.e;
  return { expr, needsScore: analyzer.needsScore };
}
