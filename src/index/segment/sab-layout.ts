/**
 * Packing typed-array sections into one SharedArrayBuffer behind a directory, and reading them
 * back as views (no copies). The only code that knows byte offsets.
 */
import { DIRECTORY_ENTRY_BYTES, FORMAT_VERSION, HEADER_BYTES, MAGIC, MIN_FORMAT_VERSION, NO_FIELD, SECTION_ALIGNMENT, Section, type SegmentInfo } from './format.js';

export type SectionArray = Uint8Array | Int8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

interface PendingSection {
  kind: Section;
  field: number;
  data: SectionArray;
}

/** Where sections go: SectionWriter (kept until finish) or AppendingSectionWriter (written at once). */
export interface SectionSink {
  add(kind: Section, field: number, data: SectionArray): void;
}

interface PlacedSection {
  kind: Section;
  field: number;
  offset: number;
  length: number;
}

const align = (n: number) => Math.ceil(n / SECTION_ALIGNMENT) * SECTION_ALIGNMENT;
const asBytes = (a: SectionArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The header, directory and info of a segment whose sections are already in place. */
function writeHeader(sab: SharedArrayBuffer, placed: readonly PlacedSection[], infoBytes: Uint8Array): void {
  const header = new Uint32Array(sab, 0, 4 + placed.length * 4);
  header[0] = MAGIC;
  header[1] = FORMAT_VERSION;
  header[2] = placed.length;
  header[3] = infoBytes.length;
  new Uint8Array(sab, HEADER_BYTES + placed.length * DIRECTORY_ENTRY_BYTES, infoBytes.length).set(infoBytes);
  placed.forEach((s, i) => {
    const e = 4 + i * 4;
    header[e] = s.kind;
    header[e + 1] = s.field;
    header[e + 2] = s.offset;
    header[e + 3] = s.length;
  });
}

const headerBytes = (sections: number, infoBytes: number) => HEADER_BYTES + sections * DIRECTORY_ENTRY_BYTES + infoBytes;

export class SectionWriter implements SectionSink {
  private readonly sections: PendingSection[] = [];

  add(kind: Section, field: number, data: SectionArray): void {
    this.sections.push({ kind, field, data });
  }

  /** Lays everything out in a new SharedArrayBuffer. */
  finish(info: SegmentInfo): SharedArrayBuffer {
    const infoBytes = new TextEncoder().encode(JSON.stringify(info));
    let offset = align(headerBytes(this.sections.length, infoBytes.length));
    const placed: PlacedSection[] = [];
    for (const s of this.sections) {
      placed.push({ kind: s.kind, field: s.field, offset, length: s.data.byteLength });
      offset = align(offset + s.data.byteLength);
    }
    if (offset > MAX_SEGMENT_BYTES) throw new Error(`segment too large (${offset} bytes)`);
    const sab = new SharedArrayBuffer(offset);
    const bytes = new Uint8Array(sab);
    this.sections.forEach((s, i) => bytes.set(asBytes(s.data), placed[i].offset));
    writeHeader(sab, placed, infoBytes);
    return sab;
  }
}

/**
 * One writer that lives as long as the module, so V8 keeps SectionWriter's hidden class between
 * builds (issue 19; see BLOCK_SINK_SHAPE in stored-fields.ts): the writer code was compiled again
 * after each full collection between two builds.
 */
export const SECTION_WRITER_SHAPE: object = new SectionWriter();

/** Offsets and lengths in the directory are u32. */
const MAX_SEGMENT_BYTES = 0xffffffff;

/**
 * Writes each section into the segment's buffer as soon as it is added, so whoever derives the
 * sections (a merge) can let each array go before making the next, instead of all of them living
 * until a final copy (issue 22: a force-merge held its sources, every merged array and the new
 * segment at once). The buffer is a growable SharedArrayBuffer: address space for `expectedBytes`
 * is reserved, memory is committed as sections arrive, and the segment ends at its exact size.
 * The header's room is reserved up front from the expected section count and info size; should
 * the real header not fit, the sections move up once at finish.
 */
export class AppendingSectionWriter implements SectionSink {
  private sab: GrowableSharedArrayBuffer;
  private readonly placed: PlacedSection[] = [];
  private start: number;
  private end: number;

  constructor(expectedBytes: number, expectedSections: number, expectedInfoBytes: number) {
    this.start = this.end = align(headerBytes(expectedSections, expectedInfoBytes));
    this.sab = newGrowable(this.start, Math.max(this.start, expectedBytes));
  }

  add(kind: Section, field: number, data: SectionArray): void {
    const offset = this.end;
    this.reserve(offset + data.byteLength);
    new Uint8Array(this.sab, offset, data.byteLength).set(asBytes(data));
    this.placed.push({ kind, field, offset, length: data.byteLength });
    this.end = align(offset + data.byteLength);
  }

  /**
   * A section whose size is known only at its end, written as its bytes come: `write` appends
   * (the bytes are copied at once), `close` ends it. No other section may be added meanwhile.
   */
  open(kind: Section, field: number): { write(bytes: Uint8Array): void; close(): void } {
    const offset = this.end;
    let length = 0;
    return {
      write: (bytes) => {
        this.reserve(offset + length + bytes.length);
        new Uint8Array(this.sab, offset + length, bytes.length).set(bytes);
        length += bytes.length;
      },
      close: () => {
        this.placed.push({ kind, field, offset, length });
        this.end = align(offset + length);
      },
    };
  }

  finish(info: SegmentInfo): SharedArrayBuffer {
    const infoBytes = new TextEncoder().encode(JSON.stringify(info));
    const need = align(headerBytes(this.placed.length, infoBytes.length));
    if (need > this.start) {
      const shift = need - this.start;
      this.reserve(this.end + shift);
      new Uint8Array(this.sab).copyWithin(this.start + shift, this.start, this.end);
      for (const s of this.placed) s.offset += shift;
      this.start += shift;
      this.end += shift;
    }
    this.reserve(this.end);
    writeHeader(this.sab, this.placed, infoBytes);
    return this.sab;
  }

  /** Grows the buffer to `bytes`; past its reservation, moves to a larger one (a copy, but rare). */
  private reserve(bytes: number): void {
    if (bytes > MAX_SEGMENT_BYTES) throw new Error(`segment too large (${bytes} bytes)`);
    if (bytes <= this.sab.byteLength) return;
    if (bytes <= this.sab.maxByteLength) {
      this.sab.grow(bytes);
      return;
    }
    const next = newGrowable(bytes, Math.min(MAX_SEGMENT_BYTES, Math.max(bytes, this.sab.maxByteLength * 1.5)));
    new Uint8Array(next, 0, this.sab.byteLength).set(new Uint8Array(this.sab, 0, this.sab.byteLength));
    this.sab = next;
  }
}

/** ES2024's growable SharedArrayBuffer (in Node 20's V8; the project's lib types predate it). */
type GrowableSharedArrayBuffer = SharedArrayBuffer & { readonly maxByteLength: number; grow(length: number): void };

function newGrowable(length: number, maxLength: number): GrowableSharedArrayBuffer {
  const Ctor = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => GrowableSharedArrayBuffer;
  return new Ctor(length, { maxByteLength: Math.ceil(maxLength) });
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
