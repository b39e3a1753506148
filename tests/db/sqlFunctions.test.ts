// A layer above the database defines its SQL functions itself (db/sqlFunctions.ts): connections opened before
// and after get them, closed ones are left alone.
import { afterEach, expect, test } from 'vitest';
import { openDatabase, type Db } from '../../src-main/db/database';
import { addSqlFunctions } from '../../src-main/db/sqlFunctions';

const opened: Db[] = [];
const open = () => {
  const db = openDatabase(':memory:');
  opened.push(db);
  return db;
};
afterEach(() => {
  for (const db of opened.splice(0)) if (db.raw.open) db.close();
});

test('a function defined later reaches the open connections and the ones opened after', () => {
  const before = open();
  const closed = open();
  closed.close();
  addSqlFunctions((raw) => raw.function('test_twice', (x: unknown) => Number(x) * 2));
  const after = open();
  expect(before.get<{ v: number }>('SELECT test_twice(21) AS v')?.v).toBe(42);
  expect(after.get<{ v: number }>('SELECT test_twice(4) AS v')?.v).toBe(8);
});

test("the filter layer's cel_matches is on every connection once the filter module is loaded", async () => {
  const db = open();
  await import('../../src-main/filter/regexFunction');
  expect(db.get<{ m: number }>("SELECT cel_matches('outpost', '^out') AS m")?.m).toBe(1);
});
