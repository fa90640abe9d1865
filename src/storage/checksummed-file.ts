/**
 * Files that must be verified on load (segments, live docs): a fixed header — magic, format
 * version, kind, payload length, CRC32 of the payload — followed by the payload bytes. A wrong
 * magic, a short file or a checksum mismatch is a CorruptFileError naming the file and the reason.
 */
import { crc32 } from 'node:zlib';

export const FILE_MAGIC = 0x54534631; // "TSF1"
export const FILE_FORMAT_VERSION = 1;
export const FILE_HEADER_BYTES = 24;

export enum FileKind {
  Segment = 1,
  LiveDocs = 2,
}

export class CorruptFileError extends Error {
  constructor(readonly file: string, readonly detail: string) {
    super(`corrupt file [${file}]: ${detail}`);
    this.name = 'CorruptFileError';
  }
}

export function checksum(bytes: Uint8Array): number {
  return crc32(bytes) >>> 0;
}

/** Header + payload, ready to write. */
export function encodeChecksummed(kind: FileKind, payload: Uint8Array): Uint8Array[] {
  const header = Buffer.alloc(FILE_HEADER_BYTES);
  header.writeUInt32LE(FILE_MAGIC, 0);
  header.writeUInt32LE(FILE_FORMAT_VERSION, 4);
  header.writeUInt32LE(kind, 8);
  header.writeDoubleLE(payload.byteLength, 12);
  header.writeUInt32LE(checksum(payload), 20);
  return [header, payload];
}

/** The verified payload of a file's bytes. */
export function decodeChecksummed(file: string, kind: FileKind, bytes: Buffer): Buffer {
  const payload = bytes.subarray(FILE_HEADER_BYTES);
  verifyChecksummed(file, kind, bytes.subarray(0, FILE_HEADER_BYTES), payload);
  return payload;
}

/**
 * Checks a file's header against the kind expected and its payload (read separately, e.g. straight
 * into a SharedArrayBuffer) against the header's length and checksum.
 */
export function verifyChecksummed(file: string, kind: FileKind, header: Uint8Array, payload: Uint8Array): void {
  if (header.length < FILE_HEADER_BYTES) throw new CorruptFileError(file, `truncated: ${header.length} bytes, shorter than the header`);
  const view = new DataView(header.buffer, header.byteOffset, FILE_HEADER_BYTES);
  if (view.getUint32(0, true) !== FILE_MAGIC) throw new CorruptFileError(file, 'bad magic number');
  const version = view.getUint32(4, true);
  if (version !== FILE_FORMAT_VERSION) throw new CorruptFileError(file, `unsupported format version ${version}`);
  if (view.getUint32(8, true) !== kind) throw new CorruptFileError(file, `wrong file kind ${view.getUint32(8, true)}`);
  const length = payloadLength(header);
  if (payload.length !== length) throw new CorruptFileError(file, `truncated: payload is ${payload.length} bytes, header says ${length}`);
  const expected = view.getUint32(20, true);
  const actual = checksum(payload);
  if (actual !== expected) throw new CorruptFileError(file, `checksum mismatch (expected ${expected.toString(16)}, found ${actual.toString(16)})`);
}

/** The payload length a header declares (unchecked). */
export function payloadLength(header: Uint8Array): number {
  return new DataView(header.buffer, header.byteOffset, FILE_HEADER_BYTES).getFloat64(12, true);
}
