// Timestamps are stored and compared as integer epoch microseconds; on the wire
// they are RFC 3339 strings in UTC (protobuf JSON mapping for google.protobuf.Timestamp).

export type Micros = number;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp (Z or numeric offset) into epoch microseconds, or null if malformed. */
export function parseTimestamp(text: string): Micros | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null; // e.g. Feb 30
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = Number(zone.slice(1, 3)), om = Number(zone.slice(4, 6));
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

/** Formats epoch microseconds as RFC 3339 UTC with 0, 3 or 6 fractional digits (as Go protojson does). */
export function formatTimestamp(micros: Micros): string {
  const ms = Math.floor(micros / 1000);
  const subMs = micros - ms * 1000;
  const d = new Date(ms);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = d.getUTCMilliseconds();
  if (millis === 0 && subMs === 0) return `${base}Z`;
  if (subMs === 0) return `${base}.${pad(millis, 3)}Z`;
  return `${base}.${pad(millis, 3)}${pad(subMs, 3)}Z`;
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
