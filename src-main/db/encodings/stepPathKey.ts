// A test step's path ("1.2.10") is stored only as this compact key (BLOB
// column test_steps.path_key): lossless, so the wire's step_path is decoded
// from it on read (and by the SQL function step_path_text for filters), and
// ordered as bytes (memcmp) in the natural order of paths, so the path indexes
// serve ListTestSteps' default order: numbers by value ("1.9" < "1.10"), a
// parent right before its children ("1" < "1.1" < "1.1.1" < "1.2"), text
// segments after numbers. A segment below 239 takes one byte, so a step
// costs about one byte per nesting level (MAX_STEP_DEPTH caps the levels),
// where the text path and its old text key took about 8.
//
// Segment encodings (a path is its segments concatenated, '.' implied):
//   0x01..0xEF        number v = byte - 1 (0..238)
//   0xF0..0xF7 + n B  number v = 239 + the next n = byte - 0xEF big-endian bytes (minimal n)
//   0xF8 + 4 B + D    number of D decimal digits (more than 15, beyond exact doubles), digits as ASCII
//   0xFF + text 00 01 any other segment, UTF-8 with 00 escaped as 00 FF
// and after a number, 00 + LEB128 count: its leading zeros ("01"), so that the key stays lossless.
import type { Database } from 'better-sqlite3';

const SMALL_MAX = 0xee; // largest one-byte value (byte 0xEF)
const WIDE = 0xf0;
const DIGITS = 0xf8;
const TEXT = 0xff;
const MAX_EXACT_DIGITS = 15;

const DIGITS_ONLY = /^[0-9]+$/;

function pushNumber(out: number[], segment: string): void {
  const digits = segment.replace(/^0+(?=[0-9])/, '');
  const zeros = segment.length - digits.length;
  if (digits.length > MAX_EXACT_DIGITS) {
    out.push(DIGITS, (digits.length >>> 24) & 0xff, (digits.length >>> 16) & 0xff, (digits.length >>> 8) & 0xff, digits.length & 0xff);
    for (let i = 0; i < digits.length; i++) out.push(digits.charCodeAt(i));
  } else {
    const v = Number(digits);
    if (v <= SMALL_MAX) out.push(v + 1);
    else {
      let rest = v - SMALL_MAX - 1;
      const bytes: number[] = [];
      do {
        bytes.unshift(rest % 256);
        rest = Math.floor(rest / 256);
      } while (rest > 0);
      out.push(WIDE + bytes.length - 1, ...bytes);
    }
  }
  if (zeros > 0) {
    out.push(0);
    let n = zeros;
    while (n >= 0x80) {
      out.push((n & 0x7f) | 0x80);
      n = Math.floor(n / 0x80);
    }
    out.push(n);
  }
}

function pushText(out: number[], segment: string): void {
  out.push(TEXT);
  for (const b of Buffer.from(segment, 'utf8')) {
    if (b === 0) out.push(0, 0xff);
    else out.push(b);
  }
  out.push(0, 1);
}

/** The stored key of a step path (any string: every path decodes back to itself). */
export function encodeStepPath(path: string): Buffer {
  const out: number[] = [];
  for (const segment of path.split('.')) {
    if (DIGITS_ONLY.test(segment)) pushNumber(out, segment);
    else pushText(out, segment);
  }
  return Buffer.from(out);
}

/** The step path a key encodes (the inverse of encodeStepPath). */
export function decodeStepPath(key: Uint8Array): string {
  const segments: string[] = [];
  let i = 0;
  while (i < key.length) {
    const b = key[i++];
    if (b === TEXT) {
      const bytes: number[] = [];
      for (;;) {
        const c = key[i++];
        if (c === undefined) throw new Error('truncated step path key');
        if (c !== 0) bytes.push(c);
        else if (key[i++] === 0xff) bytes.push(0);
        else break;
      }
      segments.push(Buffer.from(bytes).toString('utf8'));
      continue;
    }
    let digits: string;
    if (b >= 0x01 && b <= SMALL_MAX + 1) digits = String(b - 1);
    else if (b >= WIDE && b < DIGITS) {
      let v = 0;
      for (let n = b - WIDE + 1; n > 0; n--) v = v * 256 + key[i++];
      digits = String(v + SMALL_MAX + 1);
    } else if (b === DIGITS) {
      const len = ((key[i] << 24) >>> 0) + (key[i + 1] << 16) + (key[i + 2] << 8) + key[i + 3];
      i += 4;
      digits = Buffer.from(key.subarray(i, i + len)).toString('latin1');
      i += len;
    } else throw new Error(`malformed step path key (byte ${b} at ${i - 1})`);
    if (key[i] === 0 && i < key.length) {
      i++;
      let zeros = 0;
      let scale = 1;
      for (;;) {
        const c = key[i++];
        zeros += (c & 0x7f) * scale;
        scale *= 0x80;
        if (c < 0x80) break;
      }
      digits = '0'.repeat(zeros) + digits;
    }
    segments.push(digits);
  }
  return segments.join('.');
}

/** A step path is dot-separated, non-empty segments ("1", "1.2.3"). */
export function isValidStepPath(path: string): boolean {
  return path.length > 0 && path.split('.').every((s) => s.trim().length > 0);
}

export const STEP_PATH_SQL_FUNCTION = 'step_path_text';

/** Registers step_path_text(path_key): the dotted path a stored key encodes (filters on step_path). Once per connection. */
export function registerStepPathFunction(raw: Database): void {
  raw.function(STEP_PATH_SQL_FUNCTION, { deterministic: true, varargs: false }, (key: unknown) =>
    key instanceof Uint8Array ? decodeStepPath(key) : null,
  );
}
