declare module 'lz4js' {
  /** Worst-case compressed size of `n` bytes. */
  export function compressBound(n: number): number;
  /** LZ4 block format: compresses src[sIndex, sIndex + sLength) into dst from 0 and returns the bytes written (0 = nothing encoded). Matches may reach back before sIndex to positions already in `hashTable` (a preset dictionary). */
  export function compressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, hashTable: Uint32Array): number;
  /** Decodes src[sIndex, sIndex + sLength) into dst from dIndex (matches may reach back into dst before dIndex) and returns the end. */
  export function decompressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, dIndex: number): number;
  const _default: { compressBound: typeof compressBound; compressBlock: typeof compressBlock; decompressBlock: typeof decompressBlock };
  export default _default;
}
