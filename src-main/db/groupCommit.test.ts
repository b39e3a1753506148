import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { openDatabase, type Db } from './database';
import { GroupCommit } from './groupCommit';

let dir: string;
let db: Db;
let other: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-group-commit-'));
  db = openDatabase(join(dir, 'outpost.sqlite'));
  other = openDatabase(join(dir, 'outpost.sqlite'));
});
afterEach(() => {
  db.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

const write =
  (key: string, fail = false) =>
  async () =>
    db.tx(() => {
      db.setSetting(key, 'written');
      if (fail) throw new Error(`${key} failed after writing`);
      return key;
    });

test('writes submitted in one turn share a commit; a failing one rolls back alone; nothing settles before the commit', async () => {
  const group = new GroupCommit(db);
  const settled: string[] = [];
  const seenByOthers: (string | undefined)[] = [];
  const track = (p: Promise<string>, name: string) =>
    p.then(
      (v) => {
        seenByOthers.push(other.setting(name));
        settled.push(v);
      },
      (e: Error) => settled.push(e.message),
    );
  await Promise.all([
    track(group.submit(write('a')), 'a'),
    track(group.submit(write('b', true)), 'b'),
    track(group.submit(write('c')), 'c'),
  ]);
  expect(settled.sort()).toEqual(['a', 'b failed after writing', 'c']);
  // Another connection already sees each successful write when its request settles: it was committed first.
  expect(seenByOthers).toEqual(['written', 'written']);
  expect(other.setting('a')).toBe('written');
  expect(other.setting('b')).toBeUndefined();
  expect(other.setting('c')).toBe('written');
  expect(db.raw.inTransaction).toBe(false);
});

test('a write after an await inside the handler runs after the group, in its own transaction', async () => {
  const group = new GroupCommit(db);
  const late = group.submit(async () => {
    await Promise.resolve();
    return db.tx(() => (db.setSetting('late', 'written'), 'late'));
  });
  await Promise.all([late, group.submit(write('early'))]);
  expect(other.setting('late')).toBe('written');
  expect(other.setting('early')).toBe('written');
});
