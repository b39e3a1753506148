// Exact CEL timestamps and durations as BigInt nanoseconds. The CEL library
// represents timestamps as JS Dates (millisecond precision), but stored times
// are microseconds and literals may carry nanoseconds, so the compiler parses
// and does arithmetic on time constants itself.

/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999999Z, CEL's timestamp range. */
export const MIN_TIMESTAMP_NS = -62_135_596_800_000_000_000n;
export const MAX_TIMESTAMP_NS = 253_402_300_799_999_999_999n;
/** google.protobuf.Duration's range: +-315,576,000,000 seconds (10,000 years). */
export const MAX_DURATION_NS = 315_576_000_000_999_999_999n;
/**
 * The difference of two timestamps must fit int64 nanoseconds (about 292
 * years): CEL implementations compute it that way and the conformance suite
 * expects an error beyond it.
 */
export const MAX_TIMESTAMP_DIFFERENCE_NS = 9_223_372_036_854_775_807n;

const NS_PER_SECOND = 1_000_000_000n;

/** A CEL timestamp or duration constant. */
export interface TimeValue {
  readonly kind: 'timestamp' | 'duration';
  /** Nanoseconds since the Unix epoch (timestamp) or nanoseconds (duration). */
  readonly ns: bigint;
}

export function timestampInRange(ns: bigint): boolean {
  return ns >= MIN_TIMESTAMP_NS && ns <= MAX_TIMESTAMP_NS;
}

export function durationInRange(ns: bigint): boolean {
  return ns >= -MAX_DURATION_NS && ns <= MAX_DURATION_NS;
}

function daysFromCivil(year: number, month: number, day: number): number {
  // Howard Hinnant's algorithm: days since 1970-01-01 in the proleptic Gregorian calendar.
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/;

/** RFC 3339 (what CEL's timestamp() accepts) -> nanoseconds, or undefined when malformed or out of range. */
export function parseTimestamp(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetSeconds = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetSeconds = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86_400n + BigInt(hour * 3600 + minute * 60 + second - offsetSeconds);
  const nanos = m[7] ? BigInt(m[7].padEnd(9, '0')) : 0n;
  const ns = seconds * NS_PER_SECOND + nanos;
  return timestampInRange(ns) ? ns : undefined;
}

const DURATION_UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC greek mu
  ms: 1_000_000n,
  s: NS_PER_SECOND,
  m: 60n * NS_PER_SECOND,
  h: 3600n * NS_PER_SECOND,
};
const DURATION_PART = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;

/** Go/CEL duration syntax (`1.5h`, `-300ms`, `2h45m`, `0`) -> nanoseconds, or undefined. */
export function parseDuration(text: string): bigint | undefined {
  let rest = text;
  let sign = 1n;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest[0] === '-') sign = -1n;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  while (rest !== '') {
    const m = DURATION_PART.exec(rest);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = DURATION_UNITS[m[3]];
    const whole = m[1] === '' ? 0n : BigInt(m[1]);
    const fraction = m[2] ?? '';
    // Truncate below a nanosecond like Go does.
    const fractionNs = fraction === '' ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += whole * unit + fractionNs;
    if (total > MAX_DURATION_NS * 2n) return undefined;
    rest = rest.slice(m[0].length);
  }
  const ns = sign * total;
  return durationInRange(ns) ? ns : undefined;
}

/** Floor division for BigInt (BigInt `/` truncates toward zero). */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}
