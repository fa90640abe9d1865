/**
 * Append-only typed arrays for building postings without per-element allocation. Inside a
 * scratch-pool scope (scratch-pool.ts) their storage is the pool's, reused from build to build.
 */
import { releaseScratch, scratchFloat64, scratchUint32, trimmed } from './scratch-pool.js';

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
