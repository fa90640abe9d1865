/**
 * A segment as an older format wrote it, for tests that check old segments still open, score and
 * merge: every section is copied through `rewrite`, which adds what the older format had in its place
 * (by default the section as it is), and the header names `version`.
 */
import { openSegment, type Section, type Segment } from '../../src/index/index.js';
import { SectionWriter } from '../../src/index/segment/sab-layout.js';
import { DIRECTORY_ENTRY_BYTES, HEADER_BYTES } from '../../src/index/segment/format.js';

/** Adds to `w` what the older format wrote for section `kind` of field `ord` (its bytes as this build wrote them); false keeps the section as it is. */
export type SectionRewrite = (w: SectionWriter, kind: Section, ord: number, bytes: Uint8Array) => boolean;

export function asOlderFormat(s: Segment, version: number, rewrite: SectionRewrite): Segment {
  const count = new Uint32Array(s.sab, 0, 4)[2];
  const dir = new Uint32Array(s.sab, HEADER_BYTES, (count * DIRECTORY_ENTRY_BYTES) / 4);
  const w = new SectionWriter();
  for (let i = 0; i < count; i++) {
    const kind = dir[i * 4] as Section;
    const ord = dir[i * 4 + 1];
    const bytes = new Uint8Array(s.sab, dir[i * 4 + 2], dir[i * 4 + 3]);
    if (!rewrite(w, kind, ord, bytes)) w.add(kind, ord, bytes.slice());
  }
  const out = w.finish(s.info);
  new Uint32Array(out, 0, 4)[1] = version;
  return openSegment(`s${version}`, out);
}

/** A section's u8 or u16 values (`width` bytes each) widened to u32, as formats before the narrow ones stored them. */
export function widenedToU32(bytes: Uint8Array, width: 1 | 2): Uint32Array {
  return width === 1 ? Uint32Array.from(bytes) : Uint32Array.from(new Uint16Array(bytes.slice().buffer));
}
