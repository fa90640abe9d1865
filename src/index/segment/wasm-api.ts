/**
 * The few WebAssembly JS API members the LZ4 codecs use (lz4-wasm.ts decodes, lz4-wasm-encode.ts
 * encodes): the ES2023 lib this project compiles against declares none of them.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: Record<string, unknown> };
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A WebAssembly memory page. */
export const PAGE_BYTES = 65536;
