/**
 * The inflated size a gzip body states in its trailer (RFC 1952 ISIZE: the last member's size mod
 * 2^32), or null when the body is too short to have one. A body whose last member states more
 * than a limit inflates to at least that much (the true size is ISIZE plus a multiple of 2^32,
 * plus any earlier members), so it can be refused before any of it is inflated. A trailer that
 * states less than the truth is the client's word only: inflating stays bounded by the limit.
 */
export function gzipStatedSize(bytes: Uint8Array): number | null {
  // 10 bytes of header, at least 2 of deflate data, 8 of trailer (CRC32, ISIZE).
  if (bytes.byteLength < 20) return null;
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(bytes.byteLength - 4, true);
}
