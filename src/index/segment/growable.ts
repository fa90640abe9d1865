/**
 * Append-only typed arrays for building postings without per-element allocation. Inside a
 * scratch-pool scope (scratch-pool.ts) their storage is the pool's, reused from build to build.
 */
import { releaseScratch, scratchFloat64, scratchUint16, scratchUint32, scratchUint8, trimmed } from './scratch-pool.js';

export class GrowableUint32 {
  data: Uint32Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = scratchUint32(capacity, false);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = scratchUint32(this.data.length * 2, false);
      next.set(this.data);
      releaseScratch(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  toArray(): Uint32Array {
    return trimmed(this.data, this.length);
  }
  /** Empties it and gives its storage back to the scope's pool for the build's later phases (no view of it may be in use). */
  release(): void {
    releaseScratch(this.data);
    this.data = EMPTY_U32;
    this.length = 0;
  }
}

const EMPTY_U32 = new Uint32Array(0);
const EMPTY_U8 = new Uint8Array(0);

export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 16) {
    this.data = scratchFloat64(capacity, false);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = scratchFloat64(this.data.length * 2, false);
      next.set(this.data);
      releaseScratch(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  toArray(): Float64Array {
    return trimmed(this.data, this.length);
  }
}

/**
 * Unsigned values in the narrowest array type that holds every one pushed so far: u8, then u16,
 * then u32, widened (copied once) when a larger value comes. A build's token positions: short
 * docs' fit a byte, and a u32 log of them was 4 B per token of a refresh's build (issue 22).
 */
export class GrowableNarrow {
  data: Uint8Array | Uint16Array | Uint32Array;
  length = 0;
  /** Values from here on need a wider type. */
  private limit = 0x100;
  constructor(capacity = 16) {
    this.data = scratchUint8(capacity, false);
  }
  push(v: number): void {
    if (v >= this.limit) this.widen(v);
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  /** Empties it and gives its storage back to the scope's pool (see GrowableUint32.release). */
  release(): void {
    releaseScratch(this.data);
    this.data = EMPTY_U8;
    this.length = 0;
    this.limit = 0x100;
  }
  private widen(v: number): void {
    const wide = v >= 0x10000 ? scratchUint32(this.data.length, false) : scratchUint16(this.data.length, false);
    this.limit = v >= 0x10000 ? Infinity : 0x10000;
    this.replace(wide);
  }
  private grow(): void {
    const n = Math.max(16, this.data.length * 2);
    this.replace(this.data instanceof Uint8Array ? scratchUint8(n, false) : this.data instanceof Uint16Array ? scratchUint16(n, false) : scratchUint32(n, false));
  }
  private replace(next: Uint8Array | Uint16Array | Uint32Array): void {
    next.set(this.data.subarray(0, this.length));
    releaseScratch(this.data);
    this.data = next;
  }
}
