/**
 * Memory of the DFA walks a longest-match scanner has made over one text, so that no stretch of the
 * text is walked twice in the same state (the idea of Reps, "Maximal-munch tokenization in linear
 * time", TOPLAS 1998).
 *
 * Why: the scanner walks from each token start as far as the DFA goes (up to the maximum token
 * length) and keeps the last accepting point. When nothing accepts — 255 underscores, a run of ZWJs —
 * it skips one character and walks again from the next, re-reading the same 254 characters: a 1 MB
 * run cost 255 MB of steps. Two walks that reach the same position in the same DFA state go on
 * identically, so the later one can take the earlier one's outcome instead of stepping again.
 *
 * What is recorded: for each position a walk steps to, the state it was in there and which walk it
 * was (its start); for each walk, where it stopped, in what state, why (dead state, end of text, or
 * its length limit) and its last accepting point. A later walk that meets a record with its own
 * state at position i jumps to that walk's stop: nothing accepts on the way, because every later
 * walk starts at or after that walk's last accept (tokens are scanned left to right), and the
 * record's walk stopped no later than the later walk's own limit would (its limit was smaller).
 * Records are only kept while walks start at increasing positions of the same text with the same
 * length limit; anything else starts afresh.
 *
 * Memory is a ring of min(text length, maximum token length) + 2 slots of WAYS records each, reused
 * across texts, at most MAX_SLOTS (6 MB): a record overwritten by a later position only costs a re-walk, never a wrong
 * answer, since every hit is checked against the position and walk it claims.
 */

const MAX_SLOTS = 1 << 16;
/**
 * Records kept per position. Walks of different kinds can alternate (in `a-a-a-…` the uax_url_email
 * scanner walks from every `a` and every `-`, in two different states): with one record per
 * position each kind would evict the other's and nothing would ever be found again.
 */
const WAYS = 4;

/** Why a walk stopped. */
export const STOP_DEAD = 0;
export const STOP_END = 1;
export const STOP_LIMIT = 2;

export interface WalkOutcome {
  /** Where the walk stopped (exclusive end of what it read). */
  stop: number;
  /** Its DFA state there. */
  state: number;
  /** STOP_DEAD, STOP_END or STOP_LIMIT. */
  reason: number;
}

export class ScanMemo {
  private text: string | undefined;
  private maxTokenLength = -1;
  private lastStart = -1;
  /** Added to every stored position, so records of earlier texts never match (no clearing needed). */
  private base = 0;
  private size = 0;
  // Per record (WAYS records per position, from (position % size) * WAYS): absolute position + base,
  // state, start + base of its walk.
  private pos = new Float64Array(0);
  private stateAt = new Int32Array(0);
  private walkAt = new Float64Array(0);
  // Per walk (slot = start % size): start + base, stop, state at stop, reason, last accept end.
  private walkStart = new Float64Array(0);
  private walkStop = new Int32Array(0);
  private walkState = new Int32Array(0);
  private walkReason = new Int8Array(0);
  private walkLastEnd = new Int32Array(0);

  /** Prepares for a walk from `start`; forgets everything unless it continues the same scan. */
  begin(text: string, start: number, maxTokenLength: number): void {
    if (text !== this.text || maxTokenLength !== this.maxTokenLength || start <= this.lastStart) {
      this.base += (this.text?.length ?? 0) + 2;
      this.text = text;
      this.maxTokenLength = maxTokenLength;
      const size = Math.min(text.length, maxTokenLength, MAX_SLOTS) + 2;
      if (size > this.size) this.allocate(size);
    }
    this.lastStart = start;
  }

  /**
   * Called by the walk from `start` on reaching position `i` in `state`. Returns the outcome of an
   * earlier walk that was there in the same state (the caller continues from it), or null after
   * recording this visit.
   */
  visit(start: number, i: number, state: number, out: WalkOutcome): boolean {
    const first = (i % this.size) * WAYS;
    const at = i + this.base;
    let victim = first;
    for (let slot = first; slot < first + WAYS; slot++) {
      if (this.pos[slot] !== at) {
        victim = slot; // a stale record: free
        continue;
      }
      if (this.stateAt[slot] === state) {
        const walk = this.walkAt[slot] - this.base;
        const ws = walk % this.size;
        if (this.walkStart[ws] === walk + this.base && this.walkLastEnd[ws] < i) {
          out.stop = this.walkStop[ws];
          out.state = this.walkState[ws];
          out.reason = this.walkReason[ws];
          // The caller's walk goes at least as far from here: later walks should jump with it, not
          // hop from one earlier walk's stop to the next.
          this.walkAt[slot] = start + this.base;
          return true;
        }
        victim = slot; // the same state from a walk that no longer counts: replace it
        break;
      }
      if (this.pos[victim] === at && this.walkAt[slot] < this.walkAt[victim]) victim = slot; // the oldest walk's record
    }
    this.pos[victim] = at;
    this.stateAt[victim] = state;
    this.walkAt[victim] = start + this.base;
    return false;
  }

  /** Records how the walk from `start` ended; `lastEnd` is its last accepting point, or -1. */
  end(start: number, stop: number, state: number, reason: number, lastEnd: number): void {
    const ws = start % this.size;
    this.walkStart[ws] = start + this.base;
    this.walkStop[ws] = stop;
    this.walkState[ws] = state;
    this.walkReason[ws] = reason;
    this.walkLastEnd[ws] = lastEnd;
  }

  private allocate(size: number): void {
    this.size = size;
    this.pos = new Float64Array(size * WAYS).fill(-1);
    this.stateAt = new Int32Array(size * WAYS);
    this.walkAt = new Float64Array(size * WAYS);
    this.walkStart = new Float64Array(size).fill(-1);
    this.walkStop = new Int32Array(size);
    this.walkState = new Int32Array(size);
    this.walkReason = new Int8Array(size);
    this.walkLastEnd = new Int32Array(size);
  }
}
