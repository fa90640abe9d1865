/**
 * Reads shared by the field processors (ES IngestDocument.getFieldValue with `ignoreMissing`, and
 * AbstractStringProcessor's checks), so every processor words missing, null and mistyped fields
 * the same way ES does.
 */
import { IllegalArgumentError } from '../../errors/index.js';
import { javaType, type IngestDocument } from '../ingest-document.js';

/** The value at `field`; undefined when it is missing and `ignoreMissing` (else ES's error). */
export function readField(doc: IngestDocument, field: string, ignoreMissing: boolean): unknown {
  if (ignoreMissing && !doc.hasField(field)) return undefined;
  return doc.getFieldValue(field);
}

export function castError(field: string, value: unknown, to: string): IllegalArgumentError {
  return new IllegalArgumentError(`field [${field}] of type [${javaType(value)}] cannot be cast to [${to}]`);
}

export function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) || !Number.isFinite(v) ? String(v) : String(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
