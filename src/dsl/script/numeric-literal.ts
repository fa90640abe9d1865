/**
 * Painless's numeric literals (ENumeric): the type from the form and suffix (int, long `L`, float
 * `f`, double `d` or a decimal), hex and octal, a leading minus folded in, and Painless's
 * "Invalid int constant" range errors.
 */
import { ScriptCompileFailure } from './script-failure.js';
import type { SyntaxNode } from './parser.js';
import type { ScriptExpr } from './script-expr.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_LIMIT = 9223372036854775807;

/** ENumeric: a literal's type from its form and suffix, with Painless's range errors. */
export function numericLiteral(n: Extract<SyntaxNode, { k: 'num' }>): ScriptExpr {
  let text = n.text;
  const suffix = /[lLfFdD]$/.test(text) && !/^0[xX]/.test(text) ? text.slice(-1).toLowerCase() : /^0[xX].*[lL]$/.test(text) ? 'l' : '';
  if (suffix !== '') text = text.slice(0, -1);
  const sign = n.negated ? '-' : '';
  const decimal = /[.eE]/.test(text) && !/^0[xX]/.test(text);
  if (decimal || suffix === 'f' || suffix === 'd') {
    const t = suffix === 'f' ? 'float' : 'double';
    let v = Number(sign + text);
    if (t === 'float') v = Math.fround(v);
    if (!Number.isFinite(v)) throw new ScriptCompileFailure(n.at, 'illegal_argument_exception', `Invalid ${t} constant [${sign}${n.text}].`);
    return { k: 'const', t, v };
  }
  let v: number;
  if (/^0[xX]/.test(text)) v = parseInt(text.slice(2), 16);
  else if (text.length > 1 && text[0] === '0') v = /^[0-7]+$/.test(text) ? parseInt(text, 8) : NaN;
  else v = Number(text);
  if (Number.isNaN(v)) throw new ScriptCompileFailure(n.at, 'illegal_argument_exception', `invalid sequence of tokens near ['${n.text}'].`);
  if (n.negated) v = -v;
  const t = suffix === 'l' ? 'long' : 'int';
  const [lo, hi] = t === 'int' ? [INT_MIN, INT_MAX] : [-LONG_LIMIT - 1, LONG_LIMIT];
  if (v < lo || v > hi) throw new ScriptCompileFailure(n.at, 'illegal_argument_exception', `Invalid ${t} constant [${sign}${n.text}].`);
  return { k: 'const', t, v: v === 0 ? 0 : v };
}
