import fc from 'fast-check';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { codePointLength, prefixSuccessor } from './stringPrefix';

const db = new Database(':memory:');
afterAll(() => db.close());
const inRange = db.prepare('SELECT ? >= ? AND (? IS NULL OR ? < ?) AS r');

describe('prefixSuccessor', () => {
  it.each([
    ['a', 'b'],
    ['ab', 'ac'],
    ['a\u{10FFFF}', 'b'],
    ['\u{10FFFF}\u{10FFFF}', undefined],
    ['\uD7FF', '\uE000'],
    ['😀', '😁'],
    ['\uFFFF', '\u{10000}'],
    ['', undefined],
  ])('%j -> %j', (prefix, next) => expect(prefixSuccessor(prefix)).toBe(next));

  it('SQLite range [p, successor(p)) holds exactly the strings starting with p (property)', () => {
    const chars = fc.constantFrom('a', 'b', '\u{10FFFF}', '\uD7FF', '\uE000', '\uFFFF', '😀', '😁', 'é', 'e\u0301', '\u0000');
    const str = fc.array(chars, { maxLength: 4 }).map((c) => c.join(''));
    fc.assert(
      fc.property(str, str, (s, p) => {
        const next = prefixSuccessor(p) ?? null;
        const row = inRange.get(s, p, next, s, next) as { r: number };
        expect(row.r === 1).toBe(s.startsWith(p));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('codePointLength', () => {
  it('counts code points like SQLite length()', () => {
    for (const s of ['', 'a', '😀', 'e\u0301', 'a😀b𝒜']) {
      expect(codePointLength(s)).toBe((db.prepare('SELECT length(?) AS n').get(s) as { n: number }).n);
    }
  });
});
