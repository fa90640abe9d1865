/**
 * ES's `expression` language (Lucene expressions, ES ExpressionScriptEngine) over the same syntax
 * tree: every value a double; `_score`; a param by its bare name (a number); `doc['field']` of a
 * numeric, date or boolean field with `.value` (the smallest value, 0 without one), `.empty`,
 * `.length`, `.min()`, `.max()`, `.count()`; the JavaScript functions Lucene's compiler knows;
 * comparisons and `&& || !` give 1 or 0, `?:` tests for non-zero. What Lucene expressions lack or
 * this server does not run (strings, casts, `avg/median/sum()`, geo points, date members) fails as a
 * compile error: `script_exception` with the source and `^---- HERE`, caused by a parse_exception,
 * as ExpressionScriptEngine reports its ParseException.
 */
import type { AnalysisContext } from './analyzer.js';
import type { SyntaxNode } from './parser.js';
import type { ScriptExpr } from './script-expr.js';

/** A ParseException of the expression compiler (or ES's variable binding). */
export class ExpressionParseFailure extends Error {}

/** JavascriptCompiler.DEFAULT_FUNCTIONS with their arities (Lucene's `ln` is Math.log, `logn(base, x)`). */
const FUNCTIONS: Record<string, number> = {
  abs: 1, acos: 1, acosh: 1, asin: 1, asinh: 1, atan: 1, atan2: 2, atanh: 1, ceil: 1, cos: 1, cosh: 1, exp: 1, floor: 1,
  ln: 1, log10: 1, logn: 2, max: 2, min: 2, pow: 2, sin: 1, sinh: 1, sqrt: 1, tan: 1, tanh: 1,
};

const ONE: ScriptExpr = { k: 'const', t: 'double', v: 1 };
const ZERO: ScriptExpr = { k: 'const', t: 'double', v: 0 };

/** A boolean as Lucene expressions give it: 1 or 0. */
function asNumber(test: ScriptExpr): ScriptExpr {
  return { k: 'cond', t: 'double', c: test, a: ONE, b: ZERO };
}

/** A double tested as Lucene tests it: non-zero is true. */
function truthy(e: ScriptExpr): ScriptExpr {
  return { k: 'cmp', t: 'boolean', op: '!=', via: 'double', l: e, r: ZERO };
}

class ExpressionAnalyzer {
  needsScore = false;

  constructor(private readonly ctx: AnalysisContext) {}

  value(n: SyntaxNode): ScriptExpr {
    switch (n.k) {
      case 'num': {
        // Every number is a double: decimal, hex or octal, without Java's type suffixes.
        const text = n.text;
        const v = /^0[xX][0-9a-fA-F]+$/.test(text) ? parseInt(text.slice(2), 16) : /^0[0-7]+$/.test(text) ? parseInt(text, 8) : /^[0-9.eE+-]+$/.test(text) ? Number(text) : NaN;
        if (Number.isNaN(v)) throw new ExpressionParseFailure(`Invalid expression '${text}': unexpected character`);
        return { k: 'const', t: 'double', v: n.negated ? -v : v };
      }
      case 'id': return this.variable(n.name);
      case 'member': case 'index': return this.docVariable(n, null);
      case 'call': return n.target === null ? this.function(n) : this.docVariable(n.target, n);
      case 'unary': {
        const e = this.value(n.e);
        if (n.op === '!') return asNumber({ k: 'not', t: 'boolean', e: truthy(e) });
        return n.op === '-' ? { k: 'neg', t: 'double', e } : e;
      }
      case 'binary': return this.binary(n);
      case 'cond': return { k: 'cond', t: 'double', c: truthy(this.value(n.c)), a: this.value(n.a), b: this.value(n.b) };
      case 'str': case 'bool': case 'null': case 'cast':
        throw new ExpressionParseFailure(`[${n.k === 'cast' ? 'casts' : n.k === 'str' ? 'strings' : n.k}] are not supported by the expression language`);
    }
  }

  private binary(n: Extract<SyntaxNode, { k: 'binary' }>): ScriptExpr {
    const l = this.value(n.l);
    const r = this.value(n.r);
    switch (n.op) {
      case '+': case '-': case '*': case '/': case '%':
        return { k: 'arith', t: 'double', op: n.op, l, r, at: n.at };
      case '&&': return asNumber({ k: 'and', t: 'boolean', l: truthy(l), r: truthy(r) });
      case '||': return asNumber({ k: 'or', t: 'boolean', l: truthy(l), r: truthy(r) });
      default: return asNumber({ k: 'cmp', t: 'boolean', op: n.op as '==' | '!=' | '<' | '<=' | '>' | '>=', via: 'double', l, r });
    }
  }

  /** `_score`, or a param by name (ExpressionScriptEngine.bindFromParams: numbers only). */
  private variable(name: string): ScriptExpr {
    if (name === '_score' && this.ctx.score) {
      this.needsScore = true;
      return { k: 'score', t: 'double' };
    }
    if (!Object.prototype.hasOwnProperty.call(this.ctx.params, name)) throw new ExpressionParseFailure(`Unknown variable [${name}]`);
    const v = this.ctx.params[name];
    if (typeof v !== 'number') throw new ExpressionParseFailure(`Parameter [${name}] must be a numeric type`);
    return { k: 'const', t: 'double', v };
  }

  /** `doc['field']` with a member variable (`.value` by default) or a method (`call`). */
  private docVariable(n: SyntaxNode, call: Extract<SyntaxNode, { k: 'call' }> | null): ScriptExpr {
    let member = call !== null ? `${call.name}()` : 'value';
    let target = n;
    if (call === null && n.k === 'member') {
      member = n.name;
      target = n.target;
    }
    if (target.k !== 'index' || target.target.k !== 'id' || target.target.name !== 'doc' || target.index.k !== 'str' || (call !== null && call.args.length > 0)) {
      throw new ExpressionParseFailure('Invalid expression: only doc[\'field\'] variables and functions are supported');
    }
    const field = target.index.value;
    const access = this.ctx.field(field);
    if ('error' in access) {
      if (this.ctx.mapped !== undefined && !this.ctx.mapped(field)) throw new ExpressionParseFailure(`Field [${field}] does not exist in mappings`);
      throw new ExpressionParseFailure(`Field [${field}] must be numeric, date, or geopoint`);
    }
    if (access.vt === 'String') throw new ExpressionParseFailure(`Field [${field}] must be numeric, date, or geopoint`);
    const at = target.at;
    const size: ScriptExpr = { k: 'doc', t: 'int', field, vt: access.vt, read: 'size', index: null, at };
    const sizeD: ScriptExpr = { k: 'cast', t: 'double', e: size };
    const read = (index: ScriptExpr | null): ScriptExpr => {
      const raw: ScriptExpr = { k: 'doc', t: access.vt === 'boolean' ? 'boolean' : access.vt === 'date' ? 'date' : access.vt, field, vt: access.vt, read: 'value', index, at };
      const d: ScriptExpr = access.vt === 'boolean' ? asNumber(raw) : access.vt === 'double' ? raw : { k: 'cast', t: 'double', e: access.vt === 'date' ? { k: 'retype', t: 'long', e: raw } : raw };
      // A document without a value reads 0 (the field data's missing value).
      return { k: 'cond', t: 'double', c: { k: 'cmp', t: 'boolean', op: '==', via: 'int', l: size, r: { k: 'const', t: 'int', v: 0 } }, a: ZERO, b: d };
    };
    switch (member) {
      case 'value': case 'min()': return read(null);
      case 'max()': return read({ k: 'arith', t: 'int', op: '-', l: size, r: { k: 'const', t: 'int', v: 1 }, at });
      case 'empty': return asNumber({ k: 'cmp', t: 'boolean', op: '==', via: 'int', l: size, r: { k: 'const', t: 'int', v: 0 } });
      case 'length': case 'count()': return sizeD;
      default: throw new ExpressionParseFailure(`Member variable [${member}] is not supported by this server yet for numeric fields on field [${field}]`);
    }
  }

  private function(n: Extract<SyntaxNode, { k: 'call' }>): ScriptExpr {
    const arity = Object.prototype.hasOwnProperty.call(FUNCTIONS, n.name) ? FUNCTIONS[n.name] : -1;
    if (arity < 0) throw new ExpressionParseFailure(`Unrecognized function call (${n.name}).`);
    if (arity !== n.args.length) throw new ExpressionParseFailure(`Expected (${arity}) arguments for function call (${n.name}), but found (${n.args.length}).`);
    return { k: 'fn', t: 'double', fn: `js:${n.name}`, args: n.args.map((a) => this.value(a)) };
  }
}

export function analyzeExpression(root: SyntaxNode, ctx: AnalysisContext): { expr: ScriptExpr; needsScore: boolean } {
  const analyzer = new ExpressionAnalyzer(ctx);
  return { expr: analyzer.value(root), needsScore: analyzer.needsScore };
}
