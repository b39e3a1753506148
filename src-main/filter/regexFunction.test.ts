import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_REGEX_LENGTH } from './limits';
import { celMatches, compileRegex, registerSqlFunctions } from './regexFunction';

const db = new Database(':memory:');
registerSqlFunctions(db);
afterAll(() => db.close());
const sqlMatches = (text: unknown, pattern: unknown) =>
  (db.prepare('SELECT cel_matches(?, ?) AS m').get(text, pattern) as { m: number | null }).m;

describe('cel_matches (RE2 via re2js)', () => {
  it.each([
    ['hubba', 'ubb', 1], // partial match, like CEL
    ['hubba', '^ubb', 0],
    ['', '', 1],
    ['🐱😀😀', '(a|😀){2}', 1],
    ['a😀b', '^a.b$', 1], // . is one code point, not one UTF-16 unit
    ['mañana', 'a+ñ+a+', 1],
    ['ABC', '(?i)abc', 1],
  ])('%j matches %j -> %s', (text, pattern, expected) => expect(sqlMatches(text, pattern)).toBe(expected));

  it('is NULL (a CEL error) for a bad pattern or a non-string argument', () => {
    expect(sqlMatches('a', '(')).toBeNull();
    expect(sqlMatches(null, 'a')).toBeNull();
    expect(sqlMatches(1, 'a')).toBeNull();
    expect(sqlMatches('a', 'x'.repeat(MAX_REGEX_LENGTH + 1))).toBeNull();
  });

  it('stays linear on patterns that make backtracking engines explode', () => {
    const started = performance.now();
    expect(celMatches(`${'a'.repeat(30_000)}!`, '^(a+)+$')).toBe(false);
    expect(celMatches(`${'a'.repeat(30_000)}!`, '(a|aa)*b')).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('caches compiled patterns and explains bad ones', () => {
    expect(compileRegex('a+')).toBe(compileRegex('a+'));
    expect(compileRegex('(')).toMatch(/^invalid regular expression: /);
    expect(compileRegex('(a{1,1000}){1,1000}')).toMatch(/too large|too complex/);
  });
});
