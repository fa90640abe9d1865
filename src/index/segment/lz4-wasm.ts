/**
 * The fetch-time decoder of `default`-codec documents (BlockCodec.Lz4Doc): lz4-decode.wat, one
 * instance per thread, created on its first fetch. A short document decodes in a fraction of the
 * JS decoder's time (lz4-block.ts lz4Decode, which stays for the rest: merges, larger documents).
 *
 * Its memory: [dictionary slots][the block][the decoded document]. WebAssembly reads only its own
 * memory, so the block (~150 bytes) is copied in per fetch and each segment's dictionary once into
 * one of SLOTS slots, keyed by the dictionary's view (weakly: a dropped segment is not pinned).
 * The decoded document is handed out as a range of a Buffer over that memory, valid until the next
 * decode on the thread.
 */
import { Buffer } from 'node:buffer';
import { LZ4_DECODE_WASM } from './lz4-wasm-bytes.js';
import { MAX_OFFSET } from './lz4-block.js';
import { PAGE_BYTES, wasm, type WasmMemory } from './wasm-api.js';

/** Dictionaries kept per thread: segments whose hits one page fetches without re-copying. */
const SLOTS = 8;
/** Bytes the decoder may read or write past a region (its fixed 16- and 24-byte copies), rounded up. */
const SLACK = 32;
const SLOT_BYTES = MAX_OFFSET + 1 + SLACK;
const BLOCK_AT = SLOTS * SLOT_BYTES;
/** Larger documents go to the JS decoder, so a huge one does not leave the thread's memory that large. */
export const WASM_MAX_DOC_BYTES = 1024 * 1024;
/** Blocks up to this many bytes are copied into the decoder's memory by a loop. */
const COPY_LOOP_BYTES = 256;

type Decode = (src: number, srcEnd: number, dictStart: number, dictEnd: number, dst: number, dstEnd: number) => number;

interface DecoderState {
  readonly memory: WasmMemory;
  readonly decode: Decode;
  bytes: Buffer;
  readonly slots: (WeakRef<Uint8Array> | null)[];
  readonly slotOf: WeakMap<Uint8Array, number>;
  nextSlot: number;
}

let state: DecoderState | null = null;

function init(): DecoderState {
  const module = new wasm.Module(Buffer.from(LZ4_DECODE_WASM, 'base64'));
  const instance = new wasm.Instance(module, {});
  const memory = instance.exports.memory as WasmMemory;
  const pages = Math.ceil((BLOCK_AT + 4 * PAGE_BYTES) / PAGE_BYTES);
  memory.grow(pages - memory.buffer.byteLength / PAGE_BYTES);
  return {
    memory,
    decode: instance.exports.decode as Decode,
    bytes: Buffer.from(memory.buffer),
    slots: new Array<WeakRef<Uint8Array> | null>(SLOTS).fill(null),
    slotOf: new WeakMap(),
    nextSlot: 0,
  };
}

/** The [start, end) in memory of `dictionary`'s tail, copied into a slot unless it is there already. */
function dictionarySlot(s: DecoderState, dictionary: Uint8Array): number {
  let slot = s.slotOf.get(dictionary);
  if (slot === undefined || s.slots[slot]?.deref() !== dictionary) {
    slot = s.nextSlot;
    s.nextSlot = (slot + 1) % SLOTS;
    s.slots[slot] = new WeakRef(dictionary);
    s.slotOf.set(dictionary, slot);
    const tail = dictionary.length > MAX_OFFSET ? dictionary.subarray(dictionary.length - MAX_OFFSET) : dictionary;
    s.bytes.set(tail, slot * SLOT_BYTES);
  }
  return slot;
}

/**
 * Decodes the LZ4 block `blocks[start, end)` of a `length`-byte document against `dictionary`;
 * returns the offset it starts at in wasmMemoryBytes() (valid until the next call), or throws when
 * corrupt.
 */
export function wasmDecodeDoc(blocks: Uint8Array, start: number, end: number, dictionary: Uint8Array, length: number): number {
  const s = (state ??= init());
  const slot = dictionary.length > 0 ? dictionarySlot(s, dictionary) : 0;
  const dictLength = Math.min(dictionary.length, MAX_OFFSET);
  const blockLength = end - start;
  const dst = (BLOCK_AT + blockLength + SLACK + 7) & ~7;
  const needed = dst + length + SLACK;
  if (needed > s.bytes.length) {
    s.memory.grow(Math.ceil((needed - s.bytes.length) / PAGE_BYTES));
    s.bytes = Buffer.from(s.memory.buffer);
  }
  const bytes = s.bytes;
  // A block of a short document (~100 bytes) is copied by a loop: a view and `set` cost more.
  if (blockLength <= COPY_LOOP_BYTES) for (let i = 0; i < blockLength; i++) bytes[BLOCK_AT + i] = blocks[start + i];
  else bytes.set(blocks.subarray(start, end), BLOCK_AT);
  const dictStart = slot * SLOT_BYTES;
  const n = s.decode(BLOCK_AT, BLOCK_AT + blockLength, dictStart, dictStart + dictLength, dst, dst + length);
  if (n !== length) throw new Error(`corrupt stored fields block: does not decode to its ${length} bytes`);
  return dst;
}

/** The decoder's memory as a Buffer, where wasmDecodeDoc leaves a document. */
export function wasmMemoryBytes(): Buffer {
  return state!.bytes;
}
