declare module 'murmurhash3js-revisited' {
  /** MurmurHash3 x86 32-bit over bytes; returns the unsigned 32-bit hash. */
  export const x86: { hash32(bytes: Uint8Array | number[], seed?: number): number };
  const _default: { x86: typeof x86 };
  export default _default;
}
