import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStepPath, encodeStepPath, isValidStepPath } from './stepPathKey';

const sortPaths = (paths: string[]) => [...paths].sort((a, b) => Buffer.compare(encodeStepPath(a), encodeStepPath(b)));

describe('step path keys', () => {
  it('orders numeric segments naturally and parents before children', () => {
    const natural = [
      '1',
      '1.1',
      '1.1.1',
      '1.1.2',
      '1.1.10',
      '1.2',
      '1.9',
      '1.10',
      '1.10.1',
      '1.16',
      '1.238',
      '1.239',
      '1.255',
      '1.256',
      '1.70000',
      '2',
      '10',
      '1234567890123456',
      '99999999999999999999',
    ];
    expect(sortPaths([...natural].reverse())).toEqual(natural);
  });

  it('keeps leading zeros (after the same number without them) and sorts text segments after numbers', () => {
    expect(sortPaths(['1.1.1', '1.01', '1.1'])).toEqual(['1.1', '1.01', '1.1.1']);
    expect(sortPaths(['1.b', '1.a', '1.100', '1.2', '1.ab'])).toEqual(['1.2', '1.100', '1.a', '1.ab', '1.b']);
  });

  it('takes one byte per segment below 239', () => {
    expect(encodeStepPath(Array(128).fill('7').join('.')).length).toBe(128);
  });

  it('decodes every string back to itself, and orders numeric paths as their segment lists', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(decodeStepPath(encodeStepPath(s))).toBe(s);
      }),
    );
    const seg = fc.oneof(fc.nat({ max: 300 }), fc.nat(), fc.maxSafeNat());
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 6 }), fc.array(seg, { minLength: 1, maxLength: 6 }), (a, b) => {
        const expected = (() => {
          for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return Math.sign(a[i] - b[i]);
          return Math.sign(a.length - b.length);
        })();
        expect(Math.sign(Buffer.compare(encodeStepPath(a.join('.')), encodeStepPath(b.join('.'))))).toBe(expected);
      }),
    );
    for (const s of ['', '.', '1..2', '0', '00', '007.a\u0000b.3', 'a.b', '\u{1F600}.1']) expect(decodeStepPath(encodeStepPath(s))).toBe(s);
  });

  it('validates dotted paths', () => {
    expect(isValidStepPath('1.2.3')).toBe(true);
    expect(isValidStepPath('')).toBe(false);
    expect(isValidStepPath('1..2')).toBe(false);
    expect(isValidStepPath('1.')).toBe(false);
  });
});
