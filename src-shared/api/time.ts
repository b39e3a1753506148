// Timestamps are stored and compared as integer epoch microseconds; on the wire
// they are RFC 3339 strings in UTC (protobuf JSON mapping for google.protobuf.Timestamp).

export type Micros = number;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp (Z or numeric offset) into epoch microseconds, or null if malformed. */
export function parseTimestamp(text: string): Micros | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null; // e.g. Feb 30
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = Number(zone.slice(1, 3)),
      om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const fracMicros = frac ? Math.floor(Number((frac.slice(1) + '000000000').slice(0, 9)) / 1000) : 0;
  const micros = (ms - offsetMinutes * 60_000) * 1000 + fracMicros;
  // protobuf Timestamp range: 0001-01-01 .. 9999-12-31
  if (micros < -62135596800000000 || micros > 253402300799999999) return null;
  return micros;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The general (Date-based) formatting; formatTimestamp's fast path covers 1970..9999 and must agree with it. */
function formatTimestampWithDate(micros: Micros): string {
  const ms = Math.floor(micros / 1000);
  const subMs = micros - ms * 1000;
  const d = new Date(ms);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = d.getUTCMilliseconds();
  if (millis === 0 && subMs === 0) return `${base}Z`;
  if (subMs === 0) return `${base}.${pad(millis, 3)}Z`;
  return `${base}.${pad(millis, 3)}${pad(subMs, 3)}Z`;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => pad(i));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => pad(i, 3));
const MS_PER_DAY = 86_400_000;
/** 10000-01-01T00:00:00Z in epoch milliseconds: the fast path stops before 5-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;

// The "YYYY-MM-DDT" of the last day formatted: a list page's timestamps often share days.
let lastDay = NaN;
let lastDayText = '';

/** "YYYY-MM-DDT" of a day number (days since 1970-01-01, >= 0): H. Hinnant's civil_from_days. */
function dayText(days: number): string {
  if (days === lastDay) return lastDayText;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  lastDay = days;
  lastDayText = `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T`;
  return lastDayText;
}

/**
 * Formats epoch microseconds as RFC 3339 UTC with 0, 3 or 6 fractional digits (as Go protojson does).
 * Timestamps from 1970 to 9999 take integer arithmetic and digit tables instead of a Date, its six getters
 * and seven padStart calls: ~190 instead of ~380 ns each, and list pages format four per annotation and two
 * per log (bench/listing.ts).
 */
export function formatTimestamp(micros: Micros): string {
  const ms = Math.floor(micros / 1000);
  const subMs = micros - ms * 1000;
  // The Date-based path keeps the rest byte for byte: before 1970, 5-digit years, non-integer micros, and the
  // sub-millisecond parts that double rounding of micros beyond 2^53 leaves outside 0..999.
  if (!(ms >= 0 && ms < YEAR_10000_MS && subMs >= 0 && subMs < 1000 && Number.isInteger(subMs))) return formatTimestampWithDate(micros);
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const base = `${dayText(days)}${TWO_DIGITS[(rest - (rest % 60)) / 60]}:${TWO_DIGITS[rest % 60]}:${TWO_DIGITS[seconds]}`;
  if (millis === 0 && subMs === 0) return `${base}Z`;
  if (subMs === 0) return `${base}.${THREE_DIGITS[millis]}Z`;
  return `${base}.${THREE_DIGITS[millis]}${THREE_DIGITS[subMs]}Z`;
}

export function formatOptionalTimestamp(micros: Micros | null | undefined): string | null {
  return micros === null || micros === undefined ? null : formatTimestamp(micros);
}

/** Parses a protobuf JSON Duration ("3.5s", "-1s") into microseconds, or null. */
export function parseDuration(text: string): Micros | null {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/.exec(text);
  if (!m) return null;
  const micros = Number(m[2]) * 1_000_000 + (m[3] ? Math.floor(Number((m[3] + '000000000').slice(0, 9)) / 1000) : 0);
  return m[1] ? -micros : micros;
}

export function formatDuration(micros: Micros): string {
  const neg = micros < 0;
  const abs = Math.abs(micros);
  const secs = Math.floor(abs / 1_000_000);
  const frac = abs % 1_000_000;
  const fracText = frac === 0 ? '' : '.' + String(frac).padStart(6, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${secs}${fracText}s`;
}

/** Current time in epoch microseconds, strictly increasing within this process. */
let lastNow = 0;
export function nowMicros(): Micros {
  let t = Date.now() * 1000;
  if (t <= lastNow) t = lastNow + 1;
  lastNow = t;
  return t;
}
