/**
 * The build-time encoder of `default`-codec documents (BlockCodec.Lz4Doc): lz4-encode.wat, one
 * instance per thread, created on its first segment. It writes the same bytes as the JS encoder
 * (lz4-block.ts Lz4DictEncoder, the same algorithm step for step) at a fraction of its CPU: in a bulk
 * load the JS encoder was ~30% of a build worker's CPU (issue 19). Documents over MAX_BLOCK bytes
 * go to a JS encoder made on the first such document, so the instance's memory stays fixed.
 *
 * The instance holds one dictionary's hash chains at a time. Segments are encoded one after
 * another on a thread, but should two encoders interleave, the one that finds another's chains in
 * place chains its own dictionary again (~64k insertions) before its next document.
 */
import { Buffer } from 'node:buffer';
import { LZ4_ENCODE_WASM } from './lz4-wasm-bytes.js';
import { Lz4DictEncoder, MAX_OFFSET } from './lz4-block.js';
import { PAGE_BYTES, wasm, type WasmMemory } from './wasm-api.js';

/** The largest block the instance encodes: its window, chains and output are sized for this. */
const MAX_BLOCK = 65536;
/** Where lz4-encode.wat keeps its window and its output (its $W and $O), and the memory it needs. */
const WINDOW_AT = 524288;
const OUT_AT = 1179840;
const END = OUT_AT + MAX_BLOCK + Math.floor(MAX_BLOCK / 255) + 16;
/** Documents up to this many bytes are copied into the window by a loop: a view and `set` cost more. */
const COPY_LOOP_BYTES = 256;

interface EncoderState {
  readonly init: (dictLength: number) => void;
  readonly encode: (base: number, n: number) => number;
  readonly bytes: Buffer;
  /** The encoder whose dictionary's chains are in place. */
  owner: Lz4DocEncoder | null;
}

let state: EncoderState | null = null;

function instance(): EncoderState {
  const module = new wasm.Module(Buffer.from(LZ4_ENCODE_WASM, 'base64'));
  const inst = new wasm.Instance(module, {});
  const memory = inst.exports.memory as WasmMemory;
  memory.grow(Math.ceil(END / PAGE_BYTES) - memory.buffer.byteLength / PAGE_BYTES);
  return {
    init: inst.exports.init as EncoderState['init'],
    encode: inst.exports.encode as EncoderState['encode'],
    bytes: Buffer.from(memory.buffer),
    owner: null,
  };
}

/** Encodes documents as LZ4 blocks against one preset dictionary; one per segment being written. */
export class Lz4DocEncoder {
  /** The dictionary's reachable tail (the last MAX_OFFSET bytes). */
  private readonly dict: Uint8Array;
  private large: Lz4DictEncoder | null = null;

  constructor(private readonly dictionary: Uint8Array) {
    this.dict = dictionary.length > MAX_OFFSET ? dictionary.subarray(dictionary.length - MAX_OFFSET) : dictionary;
  }

  /** The LZ4 block of `raw` (a view of memory shared by the thread's encoders, valid until the next call). */
  encode(raw: Uint8Array): Uint8Array {
    const n = raw.length;
    if (n > MAX_BLOCK) return (this.large ??= new Lz4DictEncoder(this.dictionary)).encode(raw);
    const s = (state ??= instance());
    const bytes = s.bytes;
    const base = this.dict.length;
    if (s.owner !== this) {
      bytes.set(this.dict, WINDOW_AT);
      s.init(base);
      s.owner = this;
    }
    const at = WINDOW_AT + base;
    if (n <= COPY_LOOP_BYTES) for (let i = 0; i < n; i++) bytes[at + i] = raw[i];
    else bytes.set(raw, at);
    const length = s.encode(base, n);
    return bytes.subarray(OUT_AT, OUT_AT + length);
  }
}
