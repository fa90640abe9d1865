/**
 * A compiled script's typed expression (dsl/script) turned into closures, once per script object
 * on a worker (a plan the worker keeps by id keeps its programs too), then bound to each segment's
 * doc values. Evaluating is a walk of the closures: no loops, so a document costs at most the
 * expression's size. Each operator applies its Java type's arithmetic: int wraps at 32 bits and
 * long at 64, integer division truncates and throws ArithmeticException on zero, float rounds every
 * result to float32, double is IEEE 754 (x / 0.0 is Infinity or NaN, as in Java).
 */
import { runtimeError, ScriptRuntimeFailure, type CompiledScript, type ScriptExpr } from '../../dsl/index.js';
import { termAt, type Segment, type SegmentField } from '../../index/index.js';
import { datePart, javaString, MATH, SAFE, stringMethod, toInt, toLong, wrapLong } from './java-values.js';
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

/**
 * Longest string a concatenation may make. Without loops a script's strings grow at most linearly in
 * its size, but 1,000 `+`s of a 1 MB param would still make a 1 GB string per document (past V8's
 * string limit, or a response of that size per hit); ES has no such bound, Java's heap is its limit.
 */
const MAX_SCRIPT_STRING_CHARS = 1 << 20;

/** ScriptDocValues' messages for a missing value (ES 8 throwIfEmpty / throwIfBeyondLength). */
const MISSING_VALUE = 'A document doesn\'t have a value for a field! Use doc[<field>].size()==0 to check if a document is missing a field!';

const readsDocumentMemo = new WeakMap<ScriptExpr, boolean>();

/** Whether evaluating `e` reads the document or its score (else its value is the same for every doc); once per node. */
function readsDocument(e: ScriptExpr): boolean {
  let r = readsDocumentMemo.get(e);
  if (r === undefined) readsDocumentMemo.set(e, (r = readsDocumentOf(e)));
  return r;
}

function readsDocumentOf(e: ScriptExpr): boolean {
  switch (e.k) {
    case 'const': return false;
    case 'score': case 'doc': case 'random': case 'vector': return true;
    case 'neg': case 'not': case 'cast': case 'retype': case 'datePart': return readsDocument(e.e);
    case 'arith': case 'concat': case 'cmp': case 'and': case 'or': return readsDocument(e.l) || readsDocument(e.r);
    case 'cond': return readsDocument(e.c) || readsDocument(e.a) || readsDocument(e.b);
    case 'fn': return e.args.some(readsDocument);
    case 'str': return readsDocument(e.target) || (e.arg !== null && readsDocument(e.arg));
    case 'fail': return e.operands.some(readsDocument);
  }
}

/** `f`'s first outcome, value or failure, for every later call. */
function once(f: Fn): Fn {
  let done = false;
  let value: unknown;
  let failure: unknown = null;
  return (env) => {
    if (!done) {
      try {
        value = f(env);
      } catch (err) {
        failure = err;
      }
      done = true;
    }
    if (failure !== null) throw failure;
    return value;
  };
}

class Compiler {
  readonly slots = new Map<string, number>();

  private slot(field: string): number {
    let s = this.slots.get(field);
    if (s === undefined) this.slots.set(field, (s = this.slots.size));
    return s;
  }

  /**
   * A node's evaluator. Nodes that read nothing of the document (arithmetic, comparisons, string
   * methods and concatenations of params and literals) run once per script and keep their value:
   * a string param's cost is its length, as large as the request makes it, and must not be paid
   * per document.
   */
  fn(e: ScriptExpr): Fn {
    const f = this.build(e);
    return e.k !== 'const' && !readsDocument(e) ? once(f) : f;
  }

  private build(e: ScriptExpr): Fn {
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
        const at = e.at;
        return (env) => {
          const out = javaString(l(env), lt) + javaString(r(env), rt);
          if (out.length > MAX_SCRIPT_STRING_CHARS) throw new ScriptRuntimeFailure(at, 'illegal_argument_exception', `a string made by a script may be at most [${MAX_SCRIPT_STRING_CHARS}] chars long, this one would be [${out.length}]`);
          return out;
        };
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
      case 'str': return this.str(e);
      case 'datePart': {
        const x = this.num(e.e);
        const part = e.part;
        return (env) => datePart(x(env), part);
      }
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

  private str(e: Extract<ScriptExpr, { k: 'str' }>): Fn {
    const target = this.fn(e.target);
    const arg = e.arg === null ? null : this.fn(e.arg);
    const { fn, at } = e;
    return (env) => {
      const s = target(env) as string | null;
      const a = arg === null ? null : arg(env);
      if (s === null) throw new ScriptRuntimeFailure(at, 'null_pointer_exception', `Cannot invoke "String.${fn}()" because the receiver is null`);
      if (a === null && fn !== 'equals' && arg !== null) throw new ScriptRuntimeFailure(at, 'null_pointer_exception', `Cannot invoke "String.${fn}()" with a null argument`);
      return stringMethod(s, fn, a);
    };
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
