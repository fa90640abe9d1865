/**
 * Reused typed-array buffers for a thread's segment builds (issues 19 and 22).
 *
 * A refresh's build takes ~25 MB of transient arrays per 16k short docs (event logs, hash tables,
 * CSR postings, string tables, the stored blocks, the writer's per-block arrays; ~14 MB at once, as
 * each phase gives its arrays back when it ends: bench/build-scratch.ts, issue 22) and drops them
 * once the SharedArrayBuffer is written. The server runs with `MALLOC_MMAP_THRESHOLD_=131072` (RSS, issue
 * 22), so each of those arrays above 128 KB was a fresh mapping whose pages the kernel faulted in
 * one by one and unmapped again: ~0.8 page faults and 7–10 µs of system time per document in the
 * build workers, a third of their CPU.
 *
 * Inside `withScratchPool(pool, fn)` the builder and writer take their large arrays from `pool`
 * (power-of-two size classes, free lists) instead; when `fn` returns every buffer goes back to the
 * free lists, so the next build reuses pages that are already mapped. Outside a scope (tests,
 * merges, readers) the same calls are plain allocations. Whatever the pool hands out is valid only
 * until its scope ends: only code whose arrays die with the build (everything but the segment's
 * SharedArrayBuffer) may run in one.
 *
 * The pool keeps at most `maxRetainedBytes` between scopes, and `clear()` returns everything (the
 * build worker clears it when the node's segment work stops: workers/release-memory.ts), so an idle
 * node holds none of it.
 */

/** Smaller arrays come from malloc's own heap (below the mmap threshold) or V8's: not pooled. */
const MIN_POOLED_BYTES = 64 << 10;

/** Size class of a request: the next power of two. */
function sizeClass(bytes: number): number {
  return 2 ** Math.ceil(Math.log2(bytes));
}

export class ScratchPool {
  private readonly free = new Map<number, ArrayBuffer[]>();
  private readonly leased = new Set<ArrayBuffer>();
  private freeBytes = 0;

  constructor(readonly maxRetainedBytes = 128 << 20) {}

  /** Bytes held in the free lists (not in use). */
  get retainedBytes(): number {
    return this.freeBytes;
  }

  /** A buffer of at least `bytes` (contents undefined), leased until `give` or `reclaim`. */
  take(bytes: number): ArrayBuffer {
    const cls = sizeClass(bytes);
    const list = this.free.get(cls);
    let buffer = list !== undefined && list.length > 0 ? list.pop()! : null;
    if (buffer !== null) this.freeBytes -= cls;
    else buffer = new ArrayBuffer(cls);
    this.leased.add(buffer);
    return buffer;
  }

  /** Returns a leased buffer early (an array outgrown within the scope); others are ignored. */
  give(buffer: ArrayBufferLike): void {
    if (!this.leased.delete(buffer as ArrayBuffer)) return;
    this.keep(buffer as ArrayBuffer);
  }

  /** Whether `buffer` is leased from this pool (valid until the scope ends). */
  owns(buffer: ArrayBufferLike): boolean {
    return this.leased.has(buffer as ArrayBuffer);
  }

  /** The end of a scope: every leased buffer back to the free lists, up to the retention cap. */
  reclaim(): void {
    for (const buffer of this.leased) this.keep(buffer);
    this.leased.clear();
  }

  /** Drops every free buffer (they are garbage once no scope holds them). */
  clear(): void {
    this.free.clear();
    this.freeBytes = 0;
  }

  private keep(buffer: ArrayBuffer): void {
    if (this.freeBytes + buffer.byteLength > this.maxRetainedBytes) return;
    let list = this.free.get(buffer.byteLength);
    if (list === undefined) this.free.set(buffer.byteLength, (list = []));
    list.push(buffer);
    this.freeBytes += buffer.byteLength;
  }
}

let current: ScratchPool | null = null;

/** Runs `fn` with `pool` as the scratch source; every buffer it took is back in the pool afterwards. */
export function withScratchPool<T>(pool: ScratchPool, fn: () => T): T {
  const previous = current;
  current = pool;
  try {
    return fn();
  } finally {
    current = previous;
    pool.reclaim();
  }
}

type TypedArrayOf<T> = { new (length: number): T; new (buffer: ArrayBuffer, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

function scratch<T extends { fill(v: number): T }>(Type: TypedArrayOf<T>, length: number, zeroed: boolean): T {
  const bytes = length * Type.BYTES_PER_ELEMENT;
  if (current === null || bytes < MIN_POOLED_BYTES) return new Type(length);
  const array = new Type(current.take(bytes), 0, length);
  return zeroed ? array.fill(0) : array;
}

/**
 * Like `new Uint32Array(length)` (zero-filled unless `zeroed` is false: the caller overwrites it),
 * from the current scope's pool when there is one and the array is large.
 */
export function scratchUint32(length: number, zeroed = true): Uint32Array {
  return scratch(Uint32Array, length, zeroed);
}

export function scratchInt32(length: number, zeroed = true): Int32Array {
  return scratch(Int32Array, length, zeroed);
}

export function scratchUint16(length: number, zeroed = true): Uint16Array {
  return scratch(Uint16Array, length, zeroed);
}

export function scratchUint8(length: number, zeroed = true): Uint8Array {
  return scratch(Uint8Array, length, zeroed);
}

export function scratchFloat64(length: number, zeroed = true): Float64Array {
  return scratch(Float64Array, length, zeroed);
}

/** An array taken from the scope's pool goes back before the scope ends (outgrown); others are left to GC. */
export function releaseScratch(array: ArrayBufferView): void {
  if (current !== null && array.byteOffset === 0) current.give(array.buffer);
}

/**
 * `array[0, length)` as its own array: a view when the array is the scope's scratch (it dies with
 * the scope anyway), otherwise a trimmed copy, which does not pin the larger buffer.
 */
export function trimmed<T extends Uint8Array | Uint32Array | Float64Array>(array: T, length: number): T {
  return (current !== null && current.owns(array.buffer) ? array.subarray(0, length) : array.slice(0, length)) as T;
}
