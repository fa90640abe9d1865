/**
 * A compiled script's typed expression (dsl/script) turned into closures, once per script object
 * on a worker (a plan the worker keeps by id keeps its programs too), then bound to each segment's
 * doc values. Evaluating is a walk of the closures: no loops, so a document costs at most the
 * expression's size. Each operator applies its Java type's arithmetic: int wraps at 32 bits and
 * long at 64, integer division truncates and throws ArithmeticException on zero, float rounds every
 * result to float32, double is IEEE 754 (x / 0.0 is Infinity or NaN, as in Java).
 */
import { javaDouble } from '../../common/java-double.js';
import { javaFloatToString } from '../../common/float-json.js';
import { runtimeError, ScriptRuntimeFailure, type CompiledScript, type ScriptExpr, type ValueType } from '../../dsl/index.js';
import { termAt, type Segment, type SegmentField } from '../../index/index.js';
import { firstValueText, hashToScore, murmurOfText } from './random-score.js';
import { MISSING_VECTOR, vectorFunctionValue } from './vector-functions.js';

/** One evaluation's state: the document, its score, and the segment's doc values per field slot. */
class ScriptEnv {
  doc = 0;
  score = 0;
  constructor(readonly segment: Segment, readonly fields: ReadonlyArray<SegmentField | undefined>) {}
}

type Fn = (env: ScriptEnv) => unknown;
type NumFn = (env: ScriptEnv) => number;

/** ScriptDocValues' messages for a missing value (ES 8 throwIfEmpty / throwIfBeyondLength). */
const MISSING_VALUE = 'A document doesn\'t have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!';

const TWO_63 = 9223372036854775808;
const SAFE = Number.MAX_SAFE_INTEGER;

/** A long result: exact while safe, else wrapped at 64 bits as Java's long arithmetic does. */
function wrapLong(v: number, a: number, b: number, op: (x: bigint, y: bigint) => bigint): number {
  if (v >= -SAFE && v <= SAFE) return v === 0 ? 0 : v;
  return Number(BigInt.asIntN(64, op(BigInt(a), BigInt(b))));
}

/** Java's d2l: NaN → 0, saturating at the long range, toward zero. */
function toLong(v: number): number {
  if (Number.isNaN(v)) return 0;
  if (v >= TWO_63) return TWO_63 - 1;
  if (v <= -TWO_63) return -TWO_63;
  const t = Math.trunc(v);
  return t === 0 ? 0 : t;
}

/** Java's d2i (NaN → 0, saturating) and l2i (the low 32 bits). */
function toInt(v: number, from: ValueType): number {
  if (from === 'long' || from === 'int') return Math.abs(v) <= SAFE ? v | 0 : Number(BigInt.asIntN(32, BigInt(v)));
  if (Number.isNaN(v)) return 0;
  if (v >= 2147483647) return 2147483647;
  if (v <= -2147483648) return -2147483648;
  return Math.trunc(v) | 0;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** java.time's toString of a UTC instant: the time's seconds and fraction only when not zero (ZonedDateTime) or always seconds (Instant). */
function javaTime(millis: number, instant: boolean): string {
  const d = new Date(millis);
  const year = d.getUTCFullYear();
  const date = `${year > 9999 ? '+' : year < 0 ? '-' : ''}${pad(Math.abs(year), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const ms = d.getUTCMilliseconds();
  let time = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}`;
  if (instant || d.getUTCSeconds() !== 0 || ms !== 0) time += `:${pad(d.getUTCSeconds(), 2)}`;
  if (ms !== 0) time += `.${pad(ms, 3)}`;
  return `${date}T${time}Z`;
}

/** Java's String.valueOf of a value of type `t`, as `+` with a String renders it. */
function javaString(v: unknown, t: ValueType): string {
  if (v === null) return 'null';
  switch (t) {
    case 'double': return javaDouble(v as number);
    case 'float': return javaFloatToString(v as number);
    case 'date': return javaTime(v as number, false);
    case 'instant': return javaTime(v as number, true);
    case 'map': return `{${Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${String(x)}`).join(', ')}}`;
    case 'list': return `[${(v as unknown[]).map(String).join(', ')}]`;
    default: return String(v);
  }
}

const MATH: Record<string, (...a: number[]) => number> = {
  log: Math.log, log10: Math.log10, sqrt: Math.sqrt, exp: Math.exp, abs: Math.abs, floor: Math.floor, ceil: Math.ceil,
  signum: (x) => (Number.isNaN(x) || x === 0 ? x : Math.sign(x)), sin: Math.sin, cos: Math.cos, tan: Math.tan, atan: Math.atan,
  asin: Math.asin, acos: Math.acos, cbrt: Math.cbrt, log1p: Math.log1p, expm1: Math.expm1, sinh: Math.sinh, cosh: Math.cosh,
  tanh: Math.tanh, toRadians: (x) => (x / 180) * Math.PI, toDegrees: (x) => (x * 180) / Math.PI,
  rint: (x) => {
    if (!Number.isFinite(x)) return x;
    const f = Math.floor(x);
    const d = x - f;
    return d < 0.5 ? f : d > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
  },
  // Math.round(double): to the nearest long, ties up; NaN is 0.
  round: (x) => (Number.isNaN(x) ? 0 : toLong(Math.round(x))),
  pow: Math.pow, min: Math.min, max: Math.max, atan2: Math.atan2, hypot: Math.hypot,
  // ScoreScriptUtils.
  saturation: (v, k) => v / (k + v),
  sigmoid: (v, k, a) => Math.pow(v, a) / (Math.pow(k, a) + Math.pow(v, a)),
  decayNumericLinear: (origin, scale, offset, decay, v) => {
    const scaling = scale / (1.0 - decay);
    const distance = Math.max(0.0, Math.abs(v - origin) - offset);
    return Math.max(0.0, (scaling - distance) / scaling);
  },
  decayNumericExp: (origin, scale, offset, decay, v) => Math.exp((Math.log(decay) / scale) * Math.max(0.0, Math.abs(v - origin) - offset)),
  decayNumericGauss: (origin, scale, offset, decay, v) => {
    const scaling = (0.5 * Math.pow(scale, 2.0)) / Math.log(decay);
    return Math.exp((0.5 * Math.pow(Math.max(0.0, Math.abs(v - origin) - offset), 2.0)) / scaling);
  },
};

class Compiler {
  readonly slots = new Map<string, number>();

  private slot(field: string): number {
    let s = this.slots.get(field);
    if (s === undefined) this.slots.set(field, (s = this.slots.size));
    return s;
  }

  fn(e: ScriptExpr): Fn {
    switch (e.k) {
      case 'const': {
        const v = e.v;
        return () => v;
      }
      case 'score': return (env) => env.score;
      case 'doc': return this.doc(e);
      case 'neg': {
        const x = this.num(e.e);
        if (e.t === 'int') return (env) => -x(env) | 0;
        if (e.t === 'float') return (env) => Math.fround(-x(env));
        return (env) => -x(env);
      }
      case 'not': {
        const x = this.fn(e.e);
        return (env) => !x(env);
      }
      case 'arith': return this.arith(e);
      case 'concat': {
        const l = this.fn(e.l);
        const r = this.fn(e.r);
        const lt = e.l.t;
        const rt = e.r.t;
        return (env) => javaString(l(env), lt) + javaString(r(env), rt);
      }
      case 'cmp': return this.cmp(e);
      case 'and': {
        const l = this.fn(e.l);
        const r = this.fn(e.r);
        return (env) => (l(env) as boolean) && (r(env) as boolean);
      }
      case 'or': {
        const l = this.fn(e.l);
        const r = this.fn(e.r);
        return (env) => (l(env) as boolean) || (r(env) as boolean);
      }
      case 'cond': {
        const c = this.fn(e.c);
        const a = this.fn(e.a);
        const b = this.fn(e.b);
        return (env) => (c(env) ? a(env) : b(env));
      }
      case 'cast': {
        const x = this.num(e.e);
        const from = e.e.t;
        switch (e.t) {
          case 'int': return (env) => toInt(x(env), from);
          case 'long': return from === 'int' ? x : (env) => toLong(x(env));
          case 'float': return (env) => Math.fround(x(env));
          case 'double': return x;
        }
        break;
      }
      case 'retype': return this.fn(e.e);
      case 'fn': {
        const f = MATH[e.fn];
        const args = e.args.map((a) => this.num(a));
        if (args.length === 1) {
          const [a] = args;
          return (env) => f(a(env));
        }
        if (args.length === 2) {
          const [a, b] = args;
          return (env) => f(a(env), b(env));
        }
        return (env) => f(...args.map((a) => a(env)));
      }
      case 'random': return this.random(e);
      case 'vector': {
        const slot = this.slot(e.field);
        const at = e.at;
        return (env) => {
          const value = vectorFunctionValue(e, env.fields[slot], env.doc);
          if (value === null) throw new ScriptRuntimeFailure(at, 'illegal_argument_exception', MISSING_VECTOR);
          return value;
        };
      }
      case 'fail': {
        const operands = e.operands.map((o) => this.fn(o));
        const { at, cause } = e;
        return (env) => {
          for (const o of operands) o(env);
          throw new ScriptRuntimeFailure(at, cause.type, cause.reason);
        };
      }
    }
    throw new Error(`unknown script node [${(e as ScriptExpr).k}]`);
  }

  private num(e: ScriptExpr): NumFn {
    return this.fn(e) as NumFn;
  }

  private arith(e: Extract<ScriptExpr, { k: 'arith' }>): Fn {
    const l = this.num(e.l);
    const r = this.num(e.r);
    const at = e.at;
    const byZero = () => new ScriptRuntimeFailure(at, 'arithmetic_exception', '/ by zero');
    if (e.t === 'float') {
      const lf = e.l.t === 'float' ? l : (env: ScriptEnv) => Math.fround(l(env));
      const rf = e.r.t === 'float' ? r : (env: ScriptEnv) => Math.fround(r(env));
      switch (e.op) {
        case '+': return (env) => Math.fround(lf(env) + rf(env));
        case '-': return (env) => Math.fround(lf(env) - rf(env));
        case '*': return (env) => Math.fround(lf(env) * rf(env));
        case '/': return (env) => Math.fround(lf(env) / rf(env));
        case '%': return (env) => Math.fround(lf(env) % rf(env));
      }
    }
    if (e.t === 'double') {
      switch (e.op) {
        case '+': return (env) => l(env) + r(env);
        case '-': return (env) => l(env) - r(env);
        case '*': return (env) => l(env) * r(env);
        case '/': return (env) => l(env) / r(env);
        case '%': return (env) => l(env) % r(env);
      }
    }
    if (e.t === 'int') {
      switch (e.op) {
        case '+': return (env) => (l(env) + r(env)) | 0;
        case '-': return (env) => (l(env) - r(env)) | 0;
        case '*': return (env) => Math.imul(l(env), r(env));
        case '/': return (env) => {
          const a = l(env);
          const b = r(env);
          if (b === 0) throw byZero();
          return (a / b) | 0;
        };
        case '%': return (env) => {
          const a = l(env);
          const b = r(env);
          if (b === 0) throw byZero();
          return (a % b) | 0;
        };
      }
    }
    switch (e.op) {
      case '+': return (env) => {
        const a = l(env);
        const b = r(env);
        return wrapLong(a + b, a, b, (x, y) => x + y);
      };
      case '-': return (env) => {
        const a = l(env);
        const b = r(env);
        return wrapLong(a - b, a, b, (x, y) => x - y);
      };
      case '*': return (env) => {
        const a = l(env);
        const b = r(env);
        return wrapLong(a * b, a, b, (x, y) => x * y);
      };
      case '/': return (env) => {
        const a = l(env);
        const b = r(env);
        if (b === 0) throw byZero();
        if (Math.abs(a) <= SAFE) {
          const q = Math.trunc(a / b);
          return q === 0 ? 0 : q;
        }
        return Number(BigInt.asIntN(64, BigInt(a) / BigInt(b)));
      };
      case '%': return (env) => {
        const a = l(env);
        const b = r(env);
        if (b === 0) throw byZero();
        const m = a % b;
        return m === 0 ? 0 : m;
      };
    }
  }

  private cmp(e: Extract<ScriptExpr, { k: 'cmp' }>): Fn {
    const l = this.fn(e.l);
    const r = this.fn(e.r);
    if (e.via === 'never') {
      const answer = e.op === '!=';
      return (env) => {
        const a = l(env);
        const b = r(env);
        return a === null && b === null ? !answer : answer;
      };
    }
    if (e.via === 'same' && (e.l.t === 'map' || e.l.t === 'list')) {
      return (env) => (JSON.stringify(l(env)) === JSON.stringify(r(env))) === (e.op === '==');
    }
    // Numbers compared in float are rounded first; the other types compare as they are.
    const lf = e.via === 'float' && e.l.t !== 'float' ? (env: ScriptEnv) => Math.fround(l(env) as number) : l;
    const rf = e.via === 'float' && e.r.t !== 'float' ? (env: ScriptEnv) => Math.fround(r(env) as number) : r;
    switch (e.op) {
      case '==': return (env) => lf(env) === rf(env);
      case '!=': return (env) => lf(env) !== rf(env);
      case '<': return (env) => (lf(env) as number) < (rf(env) as number);
      case '<=': return (env) => (lf(env) as number) <= (rf(env) as number);
      case '>': return (env) => (lf(env) as number) > (rf(env) as number);
      case '>=': return (env) => (lf(env) as number) >= (rf(env) as number);
    }
  }

  private doc(e: Extract<ScriptExpr, { k: 'doc' }>): Fn {
    const slot = this.slot(e.field);
    const at = e.at;
    if (e.read === 'size') return (env) => count(env, slot);
    if (e.read === 'empty') return (env) => count(env, slot) === 0;
    const index = e.index === null ? () => 0 : this.num(e.index);
    const vt = e.vt;
    return (env) => {
      const i = index(env);
      const f = env.fields[slot];
      const n = count(env, slot);
      if (n === 0) throw new ScriptRuntimeFailure(at, 'illegal_state_exception', MISSING_VALUE);
      if (i < 0 || i >= n) throw new ScriptRuntimeFailure(at, 'index_out_of_bounds_exception', `A document doesn't have a value for a field at position [${i}]!`);
      const j = f!.docValueOffsets![env.doc] + i;
      if (vt === 'String') return termAt(env.segment, f!, f!.docValueOrds![j]);
      const v = f!.docValueNumbers![j];
      return vt === 'boolean' ? v !== 0 : v;
    };
  }

  private random(e: Extract<ScriptExpr, { k: 'random' }>): Fn {
    const seed = e.saltedSeed;
    // RandomScoreDoc hashes Integer.toString(docBase + docId): the index-wide write order here (random-score.ts).
    if (e.field === null) return (env) => hashToScore(murmurOfText(String(env.segment.indexOrder.get(env.doc)), seed));
    const slot = this.slot(e.field);
    const vt = e.vt!;
    const at = e.at;
    return (env) => {
      // RandomScoreField hashes String.valueOf(docValues.get(0)): Booleans print as true/false.
      const text = vt === 'boolean' && count(env, slot) > 0 ? String(env.fields[slot]!.docValueNumbers![env.fields[slot]!.docValueOffsets![env.doc]] !== 0)
        : firstValueText(env.segment, env.fields[slot], vt, env.doc);
      if (text === null) throw new ScriptRuntimeFailure(at, 'illegal_state_exception', MISSING_VALUE);
      return hashToScore(murmurOfText(text, seed));
    };
  }
}

function count(env: ScriptEnv, slot: number): number {
  const f = env.fields[slot];
  const offsets = f?.docValueOffsets;
  if (!offsets || (!f.docValueNumbers && !f.docValueOrds)) return 0;
  return offsets[env.doc + 1] - offsets[env.doc];
}

/** A script bound to one segment: its value for a document (and that document's score). */
export type SegmentScript = (doc: number, score: number) => unknown;

export class ScriptProgram {
  private readonly fn: Fn;
  private readonly fields: readonly string[];

  constructor(readonly script: CompiledScript) {
    const compiler = new Compiler();
    this.fn = compiler.fn(script.expr);
    this.fields = [...compiler.slots.keys()];
  }

  /** The script over `segment`; a runtime failure is thrown as ES's script_exception "runtime error". */
  bind(segment: Segment): SegmentScript {
    const env = new ScriptEnv(segment, this.fields.map((f) => segment.fields.get(f)));
    const fn = this.fn;
    const { source, lang } = this.script;
    return (doc, score) => {
      env.doc = doc;
      env.score = score;
      try {
        return fn(env);
      } catch (e) {
        if (e instanceof ScriptRuntimeFailure) throw runtimeError(source, lang, e);
        throw e;
      }
    };
  }
}

const programs = new WeakMap<CompiledScript, ScriptProgram>();

/** The closures of `script`, made once per script object (a kept plan's scripts are compiled once). */
export function scriptProgram(script: CompiledScript): ScriptProgram {
  let p = programs.get(script);
  if (!p) programs.set(script, (p = new ScriptProgram(script)));
  return p;
}
