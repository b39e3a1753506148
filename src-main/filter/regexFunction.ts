// CEL `matches` in SQL: the `cel_matches(text, pattern)` SQLite function backed
// by re2js, a linear-time RE2 engine (never a backtracking JS RegExp on user
// input). Compiled patterns are cached because SQLite calls the function once
// per candidate row with the same pattern.
import type { Database } from 'better-sqlite3';
import { RE2JS } from 're2js';
import { addSqlFunctions } from '../db/sqlFunctions';
import { MAX_REGEX_LENGTH, MAX_REGEX_PROGRAM_SIZE } from './limits';

export const REGEX_SQL_FUNCTION = 'cel_matches';

const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS | string>();

/** The compiled pattern, or the reason it is not a usable RE2 pattern. */
export function compileRegex(pattern: string): RE2JS | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    // Re-insert to keep the map in least-recently-used order.
    cache.delete(pattern);
    cache.set(pattern, hit);
    return hit;
  }
  let result: RE2JS | string;
  if (pattern.length > MAX_REGEX_LENGTH) {
    result = `regular expression is longer than ${MAX_REGEX_LENGTH} characters`;
  } else {
    try {
      const re = RE2JS.compile(pattern);
      result =
        re.programSize() > MAX_REGEX_PROGRAM_SIZE
          ? `regular expression is too complex (more than ${MAX_REGEX_PROGRAM_SIZE} instructions)`
          : re;
    } catch (e) {
      result = `invalid regular expression: ${(e as Error).message}`;
    }
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, result);
  return result;
}

/** CEL `text.matches(pattern)`: RE2 partial match; undefined is a CEL error (bad pattern). */
export function celMatches(text: string, pattern: string): boolean | undefined {
  const re = compileRegex(pattern);
  if (typeof re === 'string') return undefined;
  return re.matcher(text).find();
}

/** Registers the SQL functions compiled filters call. Run once per connection. */
export function registerSqlFunctions(raw: Database): void {
  raw.function(REGEX_SQL_FUNCTION, { deterministic: true, varargs: false }, (text: unknown, pattern: unknown) => {
    if (typeof text !== 'string' || typeof pattern !== 'string') return null;
    const matched = celMatches(text, pattern);
    return matched === undefined ? null : matched ? 1 : 0;
  });
}

// Every connection, opened before or after this module loads, gets cel_matches (stringFunctions.ts, which emits
// the calls, imports this module).
addSqlFunctions(registerSqlFunctions);
