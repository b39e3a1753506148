// `startsWith` as an index range: s starts with p  <=>  p <= s < successor(p),
// where successor(p) is the smallest string greater than every string that
// starts with p. SQLite compares TEXT with memcmp on UTF-8, which is Unicode
// code point order, so the successor is computed on code points (never on
// UTF-16 units, which would order astral characters wrongly).

const MAX_CODE_POINT = 0x10ffff;

/** The successor of prefix in code point order, or undefined when none exists (only U+10FFFF characters). */
export function prefixSuccessor(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < MAX_CODE_POINT) {
      let next = last + 1;
      // Surrogates are not characters; the next scalar value after U+D7FF is U+E000.
      if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
      points.push(next);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}

/** Length in code points, which is what SQLite's length() and substr() count for TEXT. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
