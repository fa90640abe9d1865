/**
 * Java's types as the Painless subset sees them: numeric promotion, the names compile errors
 * (canonical) and runtime errors (boxed classes) print, the JDK's checkcast message, and a JSON
 * param as the Java value Jackson reads it as.
 */
import type { NumericType, ScriptExpr, ValueType } from './script-expr.js';

const NUMERIC: readonly ValueType[] = ['int', 'long', 'float', 'double'];
export const isNumeric = (t: ValueType): t is NumericType => NUMERIC.includes(t);

/** Java's binary numeric promotion. */
export function promote(a: NumericType, b: NumericType): NumericType {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'float' || b === 'float') return 'float';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

/** Painless's canonical type names, as its compile errors print them. */
export function staticName(t: ValueType, dyn: boolean): string {
  if (dyn) return 'def';
  switch (t) {
    case 'String': return 'java.lang.String';
    case 'date': return 'java.time.ZonedDateTime';
    case 'instant': return 'java.time.Instant';
    case 'map': return 'java.util.Map';
    case 'list': return 'java.util.List';
    default: return t;
  }
}

/** The boxed class of a value, as Painless's runtime (DefMath) errors print it. */
export function boxedName(t: ValueType): string {
  switch (t) {
    case 'int': return 'java.lang.Integer';
    case 'long': return 'java.lang.Long';
    case 'float': return 'java.lang.Float';
    case 'double': return 'java.lang.Double';
    case 'boolean': return 'java.lang.Boolean';
    case 'String': return 'java.lang.String';
    case 'date': return 'java.time.ZonedDateTime';
    case 'instant': return 'java.time.Instant';
    case 'map': return 'java.util.HashMap';
    case 'list': return 'java.util.ArrayList';
    case 'null': return 'null';
  }
}

/** A def value's class as Painless's implicit def casts print it (PainlessLookupUtility.typeToUnboxedType): primitives unboxed. */
export function unboxedName(t: ValueType): string {
  return t === 'int' || t === 'long' || t === 'float' || t === 'double' || t === 'boolean' ? t : boxedName(t);
}

/** The JDK's message for a failed checkcast of a boxed value. */
export function checkcast(from: ValueType, to: string): string {
  const f = boxedName(from);
  return `class ${f} cannot be cast to class ${to} (${f} and ${to} are in module java.base of loader 'bootstrap')`;
}

/** A JSON param as a constant of the Java type Jackson reads it as (integers: Integer, then Long; fractions: Double). */
export function paramConst(v: unknown): ScriptExpr {
  if (v === null || v === undefined) return { k: 'const', t: 'null', v: null };
  if (typeof v === 'boolean') return { k: 'const', t: 'boolean', v };
  if (typeof v === 'string') return { k: 'const', t: 'String', v };
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return { k: 'const', t: v >= -2147483648 && v <= 2147483647 ? 'int' : 'long', v };
    return { k: 'const', t: 'double', v };
  }
  return { k: 'const', t: Array.isArray(v) ? 'list' : 'map', v };
}
