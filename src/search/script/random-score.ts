/**
 * ES's reproducible random scores (RandomScoreFunction, ScoreScriptUtils.randomScore): the low 24
 * bits of a 32-bit hash as a float in [0, 1). Of a value: murmur3_x86_32 of its text's UTF-8 bytes
 * (Lucene StringHelper.murmurhash3_x86_32) seeded with the salted seed; of a document without a
 * field: ES mixes the Lucene doc id (docBase + doc), which depends on sharding, so this server
 * hashes the document's index-wide write order instead.
 */
import murmur from 'murmurhash3js-revisited';
import { javaDouble } from '../../common/java-double.js';
import type { DocValueType } from '../../dsl/index.js';
import { termAt, type Segment, type SegmentField } from '../../index/index.js';

const utf8 = new TextEncoder();

/** `(hash & 0x00FFFFFF) / (float) (1 << 24)`. */
export function hashToScore(hash: number): number {
  return (hash & 0x00ffffff) / (1 << 24);
}

export function murmurOfText(text: string, saltedSeed: number): number {
  return murmur.x86.hash32(utf8.encode(text), saltedSeed >>> 0) | 0;
}

/** The first doc value of `doc` as fielddata's bytes render it (Long.toString, Double.toString, the term), or null. */
export function firstValueText(segment: Segment, field: SegmentField | undefined, vt: DocValueType, doc: number): string | null {
  const offsets = field?.docValueOffsets;
  if (!field || !offsets || offsets[doc] === offsets[doc + 1]) return null;
  const j = offsets[doc];
  if (vt === 'String') return field.docValueOrds ? termAt(segment, field, field.docValueOrds[j]) : null;
  const n = field.docValueNumbers?.[j];
  if (n === undefined) return null;
  return vt === 'double' ? javaDouble(n) : String(n);
}
