/**
 * ES ConvertProcessor: converts a field (or each element of a list) to integer, long, float,
 * double, boolean, string, ip, or `auto` (the narrowest of long, double, boolean that parses,
 * else the string itself), with ES's "unable to convert [x] to integer" errors.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import type { ProcessorConfig } from '../config.js';
import type { ProcessorBody } from '../processor.js';
import { javaToString, readField } from './field-access.js';

const TYPES = ['integer', 'long', 'float', 'double', 'boolean', 'string', 'ip', 'auto'] as const;
type ConvertType = (typeof TYPES)[number];

const INT_RE = /^[+-]?(\d+|0[xX][0-9a-fA-F]+|#[0-9a-fA-F]+)$/;
const FLOAT_RE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;
const IPV4_RE = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Java's Integer.decode / Long.decode: decimal, 0x / # hex; the result must fit the range. */
function decodeInteger(text: string, min: number, max: number): number | null {
  const s = text.trim() === text ? text : null;
  if (s === null || !INT_RE.test(s)) return null;
  const neg = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  const n = body.startsWith('0x') || body.startsWith('0X') ? parseInt(body.slice(2), 16) : body.startsWith('#') ? parseInt(body.slice(1), 16) : Number(body);
  const v = neg ? -n : n;
  return v >= min && v <= max && Number.isSafeInteger(v) ? v : null;
}

function convertOne(value: unknown, type: ConvertType): unknown {
  const text = javaToString(value);
  switch (type) {
    case 'integer': {
      const v = decodeInteger(text, -2147483648, 2147483647);
      if (v === null) throw new IllegalArgumentError(`unable to convert [${text}] to integer`);
      return v;
    }
    case 'long': {
      const v = decodeInteger(text, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      if (v === null) throw new IllegalArgumentError(`unable to convert [${text}] to long`);
      return v;
    }
    case 'float':
    case 'double': {
      if (!FLOAT_RE.test(text.trim())) throw new IllegalArgumentError(`unable to convert [${text}] to ${type}`);
      const v = Number(text.trim().replace(/[fFdD]$/, ''));
      return type === 'float' ? Number(Math.fround(v).toPrecision(9)) : v;
    }
    case 'boolean':
      if (text.toLowerCase() === 'true') return true;
      if (text.toLowerCase() === 'false') return false;
      throw new IllegalArgumentError(`[${text}] is not a boolean value, cannot convert to boolean`);
    case 'string':
      return text;
    case 'ip':
      if (IPV4_RE.test(text) || (text.includes(':') && /^[0-9a-fA-F:.]+$/.test(text))) return text;
      throw new IllegalArgumentError(`[${text}] is not a valid ip`);
    case 'auto': {
      const long = decodeInteger(text, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
      if (long !== null) return long;
      if (FLOAT_RE.test(text)) return Number(text.replace(/[fFdD]$/, ''));
      if (text === 'true' || text === 'false') return text === 'true';
      return value;
    }
  }
}

export function convert(config: ProcessorConfig): ProcessorBody {
  const field = config.string('field');
  const typeName = config.string('type');
  if (!(TYPES as readonly string[]).includes(typeName.toLowerCase())) throw config.error('type', `type [${typeName}] not supported, cannot convert field.`);
  const type = typeName.toLowerCase() as ConvertType;
  const targetField = config.string('target_field', field);
  const ignoreMissing = config.bool('ignore_missing', false);
  return {
    kind: 'document',
    execute(doc) {
      const value = readField(doc, field, ignoreMissing);
      if (value === undefined || (value === null && ignoreMissing)) return;
      if (value === null) throw new IllegalArgumentError(`Field [${field}] is null, cannot be converted to type [${type}]`);
      doc.setFieldValue(targetField, Array.isArray(value) ? value.map((v) => convertOne(v, type)) : convertOne(value, type));
    },
  };
}
