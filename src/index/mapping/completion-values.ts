/**
 * The JSON value of a `completion` field → its inputs with weights, validated as ES's
 * CompletionFieldMapper.parse does: `"str"`, `["a", "b"]`, `{"input": "str" | [...], "weight": int}`
 * and arrays of those objects. Inputs are deduplicated per value (a plain string sets weight 1; an
 * object keeps the larger weight), blank inputs are skipped and long ones truncated to
 * `max_input_length` UTF-16 units without splitting a surrogate pair — the truncated input is what
 * is indexed and returned. Errors are thrown bare; the document parser wraps them as ES does
 * ("failed to parse: …").
 */
import { IllegalArgumentError, ParsingError } from '../../errors/index.js';
import { isPlainObject } from '../../common/json.js';
import { jsonTokenName } from './feature-values.js';
import type { ResolvedField } from './types.js';

/** One input of a completion field, as indexing receives it. */
export interface CompletionValue {
  readonly input: string;
  readonly weight: number;
}

const ALLOWED = ['input', 'weight', 'contexts'];
const MAX_WEIGHT = 2147483647;

/** Java's Double.toString, for the numbers ES's weight errors print. */
function javaDouble(x: number): string {
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e7) return Number.isInteger(x) ? `${x}.0` : String(x);
  const [m, e] = x.toExponential().split('e');
  return `${m.includes('.') ? m : `${m}.0`}E${Number(e)}`;
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** ES parses the weight as a long (no overflow), then requires [0, Integer.MAX_VALUE]. */
function parseWeight(v: unknown): number {
  let n: bigint;
  if (typeof v === 'string') {
    // Long.parseLong: an optional sign and digits, nothing else (no spaces, no decimals).
    n = /^[+-]?\d+$/.test(v) ? BigInt(v) : LONG_MAX + 1n;
    if (n < LONG_MIN || n > LONG_MAX) throw new IllegalArgumentError(`weight must be an integer, but was [${v}]`);
  } else if (typeof v === 'number') {
    // Jackson reads 1.5 as a double and integers past a long as a BigInteger: not INT or LONG.
    // (2.0 in the JSON text is a double for Jackson too, but JSON.parse cannot tell it from 2.)
    if (!Number.isInteger(v) || v < -9223372036854775808 || v > 9223372036854775807) {
      throw new IllegalArgumentError(`weight must be an integer, but was [${Number.isInteger(v) ? BigInt(v).toString() : javaDouble(v)}]`);
    }
    n = BigInt(v);
  } else {
    throw new IllegalArgumentError(`weight must be a number or string, but was [${jsonTokenName(v)}]`);
  }
  if (n < 0n || n > BigInt(MAX_WEIGHT)) throw new IllegalArgumentError(`weight must be in the interval [0..2147483647], but was [${n}]`);
  return Number(n);
}

function parseObject(field: ResolvedField, obj: Record<string, unknown>, out: Map<string, number>): void {
  const inputs = new Set<string>();
  let weight = 1;
  for (const [k, v] of Object.entries(obj)) {
    if (!ALLOWED.includes(k)) throw new IllegalArgumentError(`unknown field name [${k}], must be one of [${ALLOWED.join(', ')}]`);
    if (k === 'input') {
      if (typeof v === 'string') inputs.add(v);
      else if (Array.isArray(v)) {
        for (const item of v) {
          if (typeof item !== 'string') throw new IllegalArgumentError(`input array must have string values, but was [${jsonTokenName(item)}]`);
          inputs.add(item);
        }
      } else throw new IllegalArgumentError(`input must be a string or array, but was [${jsonTokenName(v)}]`);
    } else if (k === 'weight') {
      weight = parseWeight(v);
    } else {
      // No context mappings can exist (the mapping refuses `contexts`), so ES's check always fails.
      throw new IllegalArgumentError(`contexts field is not supported for field: [${field.path}]`);
    }
  }
  for (const input of inputs) {
    const current = out.get(input);
    if (current === undefined || current < weight) out.set(input, weight);
  }
}

/** One element: a string or an object. `name` is what Jackson reports as the current name. */
function parseElement(field: ResolvedField, v: unknown, name: string, out: Map<string, number>): void {
  if (typeof v === 'string') out.set(v, 1);
  else if (isPlainObject(v)) parseObject(field, v, out);
  else throw new ParsingError(`failed to parse [${name}]: expected text or object, but got ${jsonTokenName(v)}`);
}

/**
 * All inputs of one value of the field (null values are ignored by the caller), input → weight.
 * `key` is the JSON key the value was under: ES's message names it, or `null` inside an array.
 */
export function parseCompletionInputs(field: ResolvedField, value: unknown, key: string): Map<string, number> {
  const out = new Map<string, number>();
  if (Array.isArray(value)) for (const item of value) parseElement(field, item, 'null', out);
  else parseElement(field, value, key, out);
  return out;
}

/** Java's String.trim().isEmpty(): only characters ≤ U+0020. */
function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x20) return false;
  return true;
}

/** The input as indexed: null when blank (ES ignores it), else truncated to max_input_length. */
export function completionValue(field: ResolvedField, input: string, weight: number): CompletionValue | null {
  if (isBlank(input)) return null;
  const max = field.completion!.maxInputLength;
  if (input.length <= max) return { input, weight };
  let len = max;
  const last = input.charCodeAt(len - 1);
  if (last >= 0xd800 && last <= 0xdbff) len++;
  return { input: input.slice(0, len), weight };
}
