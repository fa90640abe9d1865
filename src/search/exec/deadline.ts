/**
 * A search's time budget as a shard sees it (ES `timeout`): an absolute wall-clock deadline set by
 * the coordinator and checked cooperatively by the collectors — once per MaxScore window, every
 * DEADLINE_CHECK_INTERVAL matching documents in document-at-a-time loops, and before each segment.
 * On expiry the shard stops and returns what it has collected, flagged `timedOut`, as ES's
 * QueryPhase does with partial results allowed.
 *
 * The deadline is Date.now()-based because the coordinator and the workers share the wall clock;
 * performance.now() has a different origin in every thread.
 */

/** `deadline` value meaning "no timeout" (ES: `timeout` -1, the default). */
export const NO_DEADLINE = 0;

/**
 * Matching documents between two deadline checks in document-at-a-time loops: a Date.now() call
 * costs ~25 ns, so checking every 1024 docs keeps the cost far below the scoring work.
 */
export const DEADLINE_CHECK_INTERVAL = 1024;

export class SearchDeadline {
  /** Latched once the deadline has passed: every later check answers at once. */
  timedOut = false;

  /** `at`: absolute Date.now() milliseconds; ≤ 0 (NO_DEADLINE) = never expires. */
  constructor(private readonly at: number) {}

  private untilCheck = DEADLINE_CHECK_INTERVAL;

  /**
   * For document-at-a-time loops, called once per matching doc: reads the clock only every
   * DEADLINE_CHECK_INTERVAL calls, answering false in between.
   */
  expiredEvery(): boolean {
    if (--this.untilCheck !== 0) return false;
    this.untilCheck = DEADLINE_CHECK_INTERVAL;
    return this.expired();
  }

  /** Whether time is up. Strictly after the deadline, as ES QueryPhase checks `time > maxTime`. */
  expired(): boolean {
    if (!this.timedOut && this.at > NO_DEADLINE && Date.now() > this.at) this.timedOut = true;
    return this.timedOut;
  }
}
