// Display formatting shared by the views: enum labels, times, durations.
// Pure functions (tested in format.spec.ts); times are shown in UTC because
// telemetry is reviewed against UTC timelines.

/** `ANNOTATION_STATE_FLAGGED` -> `Flagged` (strip the enum prefix, sentence case). */
export function enumLabel(value: string | undefined, prefix: string): string {
  if (!value) return '—';
  const rest = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  if (rest === 'UNSPECIFIED' || rest === '') return '—';
  const words = rest.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** RFC 3339 -> `2026-09-01 14:03:07 UTC` (milliseconds only when present). */
export function formatTime(rfc3339: string | null | undefined): string {
  if (!rfc3339) return '—';
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  const ms = d.getUTCMilliseconds();
  const base = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${base}${ms ? `.${pad(ms, 3)}` : ''} UTC`;
}

/** Short form for dense lists: `Sep 1, 14:03`. */
export function formatShortTime(rfc3339: string | null | undefined): string {
  if (!rfc3339) return '—';
  const d = new Date(rfc3339);
  if (Number.isNaN(d.getTime())) return rfc3339;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  return `${month} ${d.getUTCDate()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** Duration between two RFC 3339 times: `850 ms`, `12.5 s`, `3 min 20 s`, `2 h 5 min`. */
export function formatDuration(start: string, end: string): string {
  const ms = new Date(end).getTime() - new Date(start).getTime();
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 60) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const totalSeconds = Math.round(s);
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const sec = totalSeconds % 60;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  return sec ? `${m} min ${sec} s` : `${m} min`;
}

/** `2 min ago` style, relative to `now` (for activity entries). */
export function formatRelative(rfc3339: string, now: Date = new Date()): string {
  const t = new Date(rfc3339).getTime();
  if (Number.isNaN(t)) return rfc3339;
  const seconds = Math.round((now.getTime() - t) / 1000);
  if (seconds < 0) return formatShortTime(rfc3339);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 30) return `${days} d ago`;
  return formatShortTime(rfc3339);
}

/** The local part of an email-like user name (`ana.ruiz@outpost.local` -> `ana.ruiz`). */
export function shortUser(userName: string | undefined | null): string {
  if (!userName) return '';
  const at = userName.indexOf('@');
  return at > 0 ? userName.slice(0, at) : userName;
}

/** A byte count for people: `512 B`, `48.0 kB`, `5.3 MB` (decimal units, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** Whole percent of `done` in `total`, 0..100; 100 only when everything is done (a bar never shows 100 % early). */
export function percentOf(done: number, total: number): number {
  if (total <= 0) return 0;
  if (done >= total) return 100;
  return Math.min(99, Math.max(0, Math.floor((done / total) * 100)));
}

/**
 * `1 run`, `3 runs`, `1 policy`, `2 saved searches`, `1 status`: the app's one plural (`plural` is the word as the API
 * names resources: plural). Every count in words goes through it.
 */
export function counted(n: number, plural: string): string {
  if (n !== 1) return `${n.toLocaleString()} ${plural}`;
  const one = plural.replace(/ies$/, 'y').replace(/(ch|sh|x|ss|us)es$/, '$1');
  return `1 ${one === plural ? plural.replace(/s$/, '') : one}`;
}
