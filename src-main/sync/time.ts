// Wire timestamps -> epoch micros on the pull path (millions of calls per
// initial pull). The canonical UTC form the API emits ("…T…Z" with 0-9
// fractional digits) is read digit by digit; anything else goes through the
// full RFC 3339 parser.
import { parseTimestamp } from '../../src-shared/api/time';

/** Clock slack between the Date header we saw before sending and the server's record time (Date has 1 s precision). */
export const SEND_TIME_SLACK = 2_000_000;

const digit = (s: string, i: number) => s.charCodeAt(i) - 48;
const num = (s: string, i: number, n: number) => {
  let v = 0;
  for (let k = 0; k < n; k++) {
    const d = digit(s, i + k);
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
};

export function wireMicros(ts: string | null | undefined): number | null {
  if (!ts) return null;
  const n = ts.length;
  if (
    n >= 20 &&
    ts.charCodeAt(n - 1) === 90 /* Z */ &&
    ts.charCodeAt(10) === 84 /* T */ &&
    ts.charCodeAt(4) === 45 &&
    ts.charCodeAt(7) === 45
  ) {
    const y = num(ts, 0, 4),
      mo = num(ts, 5, 2),
      d = num(ts, 8, 2),
      h = num(ts, 11, 2),
      mi = num(ts, 14, 2),
      s = num(ts, 17, 2);
    let frac = 0;
    let ok = y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59;
    if (ok && n > 20) {
      ok = ts.charCodeAt(19) === 46 /* . */ && n - 21 >= 1 && n - 21 <= 9;
      if (ok) {
        const digits = num(ts, 20, Math.min(6, n - 21));
        ok = digits >= 0 && num(ts, 20, n - 21) >= 0;
        frac = digits * 10 ** (6 - Math.min(6, n - 21));
      }
    }
    if (ok && y >= 1970) {
      const ms = Date.UTC(y, mo - 1, d, h, mi, s);
      if (new Date(ms).getUTCDate() === d) return ms * 1000 + frac;
    }
  }
  return parseTimestamp(ts);
}
