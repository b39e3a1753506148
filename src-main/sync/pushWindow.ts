// How many push requests may be on their way at once. Parallel requests are
// what make a push fast (on loopback they let both sides commit in groups; on
// a real network they hide the round trip), but a remote that answers 429 or
// 503 is asking for fewer. The window starts at the configured maximum, halves
// when the remote says it is overloaded, and widens by one request for every
// window's worth of successes (additive increase, multiplicative decrease, as
// TCP does), so a busy platform gets relief at once and an idle one gets the
// full window back gradually.
export class PushWindow {
  /** Requests allowed on their way now (1 ..max). */
  size: number;
  /**
   * Bumped by each decrease. A request sent before the last decrease reports an overload the decrease already
   * answered: a whole window of requests refused at once halves the window once, not once per request.
   */
  epoch = 0;
  private credit = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`push concurrency must be a whole number >= 1, got ${max}`);
    this.size = max;
  }

  /** The remote refused a request sent in `sentEpoch` as overloaded (429 or 503). */
  overloaded(sentEpoch: number): void {
    if (sentEpoch !== this.epoch) return;
    this.size = Math.max(1, Math.floor(this.size / 2));
    this.credit = 0;
    this.epoch++;
  }

  /** A request went through. */
  succeeded(): void {
    if (this.size >= this.max) return;
    if (++this.credit >= this.size) {
      this.size++;
      this.credit = 0;
    }
  }
}
