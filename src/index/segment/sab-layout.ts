/**
 * Packing typed-array sections into one SharedArrayBuffer behind a directory, and reading them
 * back as views (no copies). The only code that knows byte offsets.
 */
import { DIRECTORY_ENTRY_BYTES, FORMAT_VERSION, HEADER_BYTES, MAGIC, MIN_FORMAT_VERSION, NO_FIELD, SECTION_ALIGNMENT, Section, type SegmentInfo } from './format.js';

export type SectionArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

interface PendingSection {
  kind: Section;
  field: number;
  data: SectionArray;
}

const align = (n: number) => Math.ceil(n / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;

export class SectionWriter {
  private readonly sections: PendingSection[] = [];

  add(kind: Section, field: number, data: SectionArray): void {
    this.sections.push({ kind, field, data });
  }

  /** Lays everything out in a new SharedArrayBuffer. */
  finish(info: SegmentInfo): SharedArrayBuffer {
    const infoBytes = new TextEncoder().encode(JSON.stringify(info));
    let offset = align(HEADER_BYTES + this.sections.length * DIRECTORY_ENTRY_BYTES + infoBytes.length);
    const offsets: number[] = [];
    for (const s of this.sections) {
      offsets.push(offset);
      offset = align(offset + s.data.byteLength);
    }
    if (offset > 0xffffffff) throw new Error(`segment too large (${offset} bytes)`);
    const sab = new SharedArrayBuffer(offset);
    const header = new Uint32Array(sab, 0, 4 + this.sections.length * 4);
    header[0] = MAGIC;
    header[1] = FORMAT_VERSION;
    header[2] = this.sections.length;
    header[3] = infoBytes.length;
    const bytes = new Uint8Array(sab);
    bytes.set(infoBytes, HEADER_BYTES + this.sections.length * DIRECTORY_ENTRY_BYTES);
    this.sections.forEach((s, i) => {
      const e = 4 + i * 4;
      header[e] = s.kind;
      header[e + 1] = s.field;
      header[e + 2] = offsets[i];
      header[e + 3] = s.data.byteLength;
      bytes.set(new Uint8Array(s.data.buffer, s.data.byteOffset, s.data.byteLength), offsets[i]);
    });
    return sab;
  }
}

export interface SectionDirectory {
  readonly info: SegmentInfo;
  /** Key: kind × 2^32 + field. */
  readonly entries: ReadonlyMap<number, { offset: number; length: number }>;
}

const key = (kind: Section, field: number) => kind * 0x100000000 + field;

export function readDirectory(sab: SharedArrayBuffer | ArrayBuffer): SectionDirectory {
  const head = new Uint32Array(sab, 0, 4);
  if (head[0] !== MAGIC) throw new Error('not a segment (bad magic)');
  if (head[1] < MIN_FORMAT_VERSION || head[1] > FORMAT_VERSION) {
    throw new Error(`unsupported segment format version ${head[1]} (this version reads formats ${MIN_FORMAT_VERSION} to ${FORMAT_VERSION})`);
  }
  const count = head[2];
  const dir = new Uint32Array(sab, HEADER_BYTES, count * 4);
  const entries = new Map<number, { offset: number; length: number }>();
  for (let i = 0; i < count; i++) entries.set(key(dir[i * 4], dir[i * 4 + 1]), { offset: dir[i * 4 + 2], length: dir[i * 4 + 3] });
  const infoStart = HEADER_BYTES + count * DIRECTORY_ENTRY_BYTES;
  // TextDecoder refuses views of shared memory, so copy the (small) info bytes out first.
  const infoBytes = new Uint8Array(head[3]);
  infoBytes.set(new Uint8Array(sab, infoStart, head[3]));
  const info = JSON.parse(new TextDecoder().decode(infoBytes)) as SegmentInfo;
  return { info, entries };
}

type Ctor<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

export function sectionView<T extends SectionArray>(
  sab: SharedArrayBuffer | ArrayBuffer,
  dir: SectionDirectory,
  ctor: Ctor<T>,
  kind: Section,
  field: number = NO_FIELD,
): T | null {
  const e = dir.entries.get(key(kind, field));
  if (!e) return null;
  return new ctor(sab, e.offset, e.length / ctor.BYTES_PER_ELEMENT);
}
