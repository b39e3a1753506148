import { describe, expect, it } from 'vitest';
import { isValidStepPath, stepPathKey } from './stepPathKey';

const sortPaths = (paths: string[]) => [...paths].sort((a, b) => (stepPathKey(a) < stepPathKey(b) ? -1 : stepPathKey(a) > stepPathKey(b) ? 1 : 0));

describe('stepPathKey', () => {
  it('orders numeric segments naturally and parents before children', () => {
    const natural = ['1', '1.1', '1.1.1', '1.1.2', '1.1.10', '1.2', '1.9', '1.10', '1.10.1', '1.16', '2', '10'];
    expect(sortPaths([...natural].reverse())).toEqual(natural);
  });

  it('ignores leading zeros and sorts text segments after numbers', () => {
    expect(stepPathKey('1.01')).toBe(stepPathKey('1.1'));
    expect(sortPaths(['1.b', '1.a', '1.100', '1.2'])).toEqual(['1.2', '1.100', '1.a', '1.b']);
  });

  it('validates dotted paths', () => {
    expect(isValidStepPath('1.2.3')).toBe(true);
    expect(isValidStepPath('')).toBe(false);
    expect(isValidStepPath('1..2')).toBe(false);
    expect(isValidStepPath('1.')).toBe(false);
  });
});
