// The remote's clock, estimated from the Date headers of its responses.
//
// A Date header says the server's clock read [at, at + 1 s) at some instant
// between our send and our receipt, so each response bounds the offset
// (server - local) to [at - received, at + 1 s - sent]. The estimate is the
// middle of what every response so far agrees on, not the latest sample: one
// slow answer (a loaded machine, a large page) would otherwise move it by half
// its round trip, and a create's send window would be placed seconds off.
// Bounds age by the drift a disciplined clock may have (NTP slews ≤ 500 ppm);
// responses that agree with nothing before them (a clock stepped) start over.

/** How far two clocks may drift apart per unit of time, beyond what any sample said. */
const DRIFT = 1e-3;
/** A Date header's precision (ms). */
const DATE_PRECISION = 1000;

interface Bound {
  /** Offset (server - local, ms). */
  readonly value: number;
  /** Local time (ms) of the response that set it. */
  readonly at: number;
}

export class ServerClock {
  private lo: Bound | undefined;
  private hi: Bound | undefined;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** A response whose Date header read `serverMs`, for a request sent at `sentMs` and answered at `receivedMs` (local ms). */
  observe(serverMs: number, sentMs: number, receivedMs: number): void {
    const lo = { value: serverMs - receivedMs, at: receivedMs };
    const hi = { value: serverMs + DATE_PRECISION - Math.min(sentMs, receivedMs), at: receivedMs };
    if (!this.lo || !this.hi) {
      this.lo = lo;
      this.hi = hi;
      return;
    }
    const keptLo = this.aged(this.lo, -1, receivedMs) > lo.value ? this.lo : lo;
    const keptHi = this.aged(this.hi, 1, receivedMs) < hi.value ? this.hi : hi;
    if (this.aged(keptLo, -1, receivedMs) > this.aged(keptHi, 1, receivedMs)) {
      // Nothing before agrees with this answer: the local or the server clock was stepped.
      this.lo = lo;
      this.hi = hi;
      return;
    }
    this.lo = keptLo;
    this.hi = keptHi;
  }

  /** Whether any response has been seen. */
  get known(): boolean {
    return this.lo !== undefined;
  }

  /** Estimated server - local offset (ms); 0 before any response. */
  offsetMs(): number {
    if (!this.lo || !this.hi) return 0;
    const now = this.localNow();
    return (this.aged(this.lo, -1, now) + this.aged(this.hi, 1, now)) / 2;
  }

  /** How far off the estimate may be (ms), either way; Infinity before any response. */
  uncertaintyMs(): number {
    if (!this.lo || !this.hi) return Infinity;
    const now = this.localNow();
    return (this.aged(this.hi, 1, now) - this.aged(this.lo, -1, now)) / 2;
  }

  /** A bound widened by the drift since it was set (`side` -1 lowers a lower bound, +1 raises an upper one). */
  private aged(b: Bound, side: -1 | 1, now: number): number {
    return b.value + side * DRIFT * Math.max(0, now - b.at);
  }
}
