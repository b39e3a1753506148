// Bulk loads drop secondary indexes and rebuild them once; a load interrupted
// by a crash is repaired the next time the database is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beginBulkLoad, restoreIndexes, restoreIndexesGradually } from '../../src-main/db/bulkLoad';
import { openDatabase, withoutCommitSync, withoutForeignKeyChecks, type Db } from '../../src-main/db/database';
import { seedDemoData } from '../../src-main/seed/seedDemoData';

const dir = mkdtempSync(join(tmpdir(), 'outpost-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexNames = (db: Db) =>
  db
    .all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE 'annotation%' ORDER BY name",
    )
    .map((r) => r.name);

describe('bulk loads', () => {
  it('seeding an empty database ends with every index in place', () => {
    const reference = openDatabase(join(dir, 'reference.sqlite'));
    const expected = indexNames(reference);
    reference.close();
    const db = openDatabase(join(dir, 'seeded.sqlite'));
    seedDemoData(db, { annotations: 100 });
    expect(indexNames(db)).toEqual(expected);
    expect(db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('the seed writes every child row in its batches (the last, partial one too), with foreign keys and ids intact', () => {
    const db = openDatabase(join(dir, 'children.sqlite'));
    const counts = seedDemoData(db, { annotations: 250 }); // 2 full batches of 100 and a partial one
    expect(counts.annotations).toBe(250);
    const count = (sql: string) => db.get<{ n: number }>(sql)!.n;
    // Every seeded annotation has one asset, one linked channel and severity + subsystem metadata (position 0 and 1).
    for (const table of ['annotation_assets', 'annotation_linked_channels']) {
      expect(count(`SELECT count(DISTINCT annotation_pk) AS n FROM ${table}`)).toBe(250);
      expect(count(`SELECT count(*) AS n FROM ${table}`)).toBe(250);
    }
    expect(count("SELECT count(*) AS n FROM annotation_metadata WHERE (key, position) IN (VALUES ('severity', 0), ('subsystem', 1))")).toBe(
      500,
    );
    expect(
      count('SELECT count(*) AS n FROM annotation_tags t WHERE NOT EXISTS (SELECT 1 FROM annotations a WHERE a.pk = t.annotation_pk)'),
    ).toBe(0);
    expect(count('SELECT count(*) AS n FROM annotation_tags')).toBeGreaterThan(0);
    expect(
      count(
        'SELECT count(*) AS n FROM (SELECT annotation_pk FROM annotation_tags GROUP BY annotation_pk HAVING max(position) + 1 != count(*))',
      ),
    ).toBe(0);
    // Written with foreign-key checks off and the id indexes deferred: the result still satisfies both.
    expect(db.raw.pragma('foreign_key_check')).toEqual([]);
    expect(db.raw.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    // A second seed, into the filled tables, changes nothing (its OR IGNORE meets the restored id index).
    const before = count('SELECT count(*) AS n FROM annotation_metadata') + count('SELECT count(*) AS n FROM annotation_logs');
    expect(seedDemoData(db, { annotations: 250 }).annotations).toBe(0);
    expect(count('SELECT count(*) AS n FROM annotation_metadata') + count('SELECT count(*) AS n FROM annotation_logs')).toBe(before);
    db.close();
  });

  it('repairs indexes left dropped by an interrupted load when the database is next opened', () => {
    const file = join(dir, 'crashed.sqlite');
    const db = openDatabase(file);
    const expected = indexNames(db);
    expect(beginBulkLoad(db, ['annotations', 'annotation_tags'])).toBe(true);
    expect(indexNames(db).length).toBeLessThan(expected.length);
    db.raw.close(); // no restore: as if the process died here
    const reopened = openDatabase(file);
    expect(indexNames(reopened)).toEqual(expected);
    reopened.close();
  });

  it('keeps unique indexes unless asked to defer them, and restores them either way', () => {
    const db = openDatabase(join(dir, 'unique.sqlite'));
    const expected = indexNames(db);
    expect(beginBulkLoad(db, ['annotation_logs'])).toBe(true);
    expect(indexNames(db)).toContain('annotation_logs_id');
    restoreIndexes(db);
    expect(beginBulkLoad(db, ['annotation_logs'], { deferUnique: true })).toBe(true);
    expect(indexNames(db)).not.toContain('annotation_logs_id');
    restoreIndexes(db);
    expect(indexNames(db)).toEqual(expected);
    db.close();
  });

  it('an id a broken loader inserted twice is repaired at restore (its latest copy kept) instead of leaving a database that cannot open', () => {
    const file = join(dir, 'duplicate.sqlite');
    const db = openDatabase(file);
    const expected = indexNames(db);
    seedDemoData(db, { annotations: 3 });
    db.run('DELETE FROM annotations'); // logs and children go with them (cascade)
    expect(beginBulkLoad(db, ['annotations'], { deferUnique: true })).toBe(true);
    const org = db.get<{ id: string }>('SELECT id FROM organizations LIMIT 1')!.id;
    const insert = (name: string) =>
      db.run(
        `INSERT INTO annotations(id, organization_id, name, start_time, end_time, created_by_user_id, modified_by_user_id, created_date, modified_date, annotation_type)
         VALUES ('a-1', ?, ?, 1, 2, 'u', 'u', 1, 1, 1)`,
        [org, name],
      );
    insert('older copy');
    insert('newer copy');
    db.raw.close(); // the crash: indexes still deferred
    const reopened = openDatabase(file);
    expect(indexNames(reopened)).toEqual(expected);
    expect(reopened.all('SELECT name FROM annotations')).toEqual([{ name: 'newer copy' }]);
    reopened.close();
  });

  it('turns foreign-key checks off only for the function it runs, and back on even when it throws', () => {
    const db = openDatabase(join(dir, 'fk.sqlite'));
    const orphan = () => db.tx(() => db.run("INSERT INTO annotation_tags(annotation_pk, tag_name, position) VALUES (424242, 'x', 0)"));
    expect(() => withoutForeignKeyChecks(db.raw, () => db.raw.pragma('foreign_keys', { simple: true }))).not.toThrow();
    expect(withoutForeignKeyChecks(db.raw, () => db.raw.pragma('foreign_keys', { simple: true }))).toBe(0);
    expect(() =>
      withoutForeignKeyChecks(db.raw, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(orphan).toThrow(/FOREIGN KEY/);
    db.close();
  });

  it('can rebuild one index per transaction, letting other work run in between, and resumes from what is left', async () => {
    const file = join(dir, 'gradual.sqlite');
    const db = openDatabase(file);
    const expected = indexNames(db);
    expect(beginBulkLoad(db, ['annotations', 'annotation_tags', 'annotation_metadata'], { deferUnique: true })).toBe(true);
    const missing = expected.length - indexNames(db).length;
    const seen: number[] = [];
    let pauses = 0;
    // A crash after the second index: the two committed ones stay, the rest is rebuilt at the next open.
    await expect(
      restoreIndexesGradually(db, async () => {
        seen.push(indexNames(db).length);
        if (++pauses === 2) throw new Error('crash');
      }),
    ).rejects.toThrow('crash');
    expect(seen).toEqual([expected.length - missing + 1, expected.length - missing + 2]);
    db.raw.close();
    const reopened = openDatabase(file);
    expect(indexNames(reopened)).toEqual(expected);
    reopened.close();
  });

  it('does nothing to tables that already hold rows', () => {
    const db = openDatabase(join(dir, 'full.sqlite'));
    seedDemoData(db, { annotations: 10 });
    expect(beginBulkLoad(db, ['annotations'])).toBe(false);
    db.close();
  });
});

describe('withoutCommitSync (an initial pull commits its pages without syncing the WAL)', () => {
  const sync = (db: Db) => db.raw.pragma('synchronous', { simple: true });

  it("commits fn's transaction at NORMAL and puts FULL back, also when fn throws", () => {
    const db = openDatabase(join(dir, 'commit-sync.sqlite'));
    expect(sync(db)).toBe(2);
    const seen = withoutCommitSync(db.raw, () => db.tx(() => (db.setSetting('probe', 'a'), sync(db))));
    expect(seen).toBe(1);
    expect(sync(db)).toBe(2);
    expect(db.setting('probe')).toBe('a');
    expect(() =>
      withoutCommitSync(db.raw, () =>
        db.tx(() => {
          db.setSetting('probe', 'b');
          throw new Error('page refused');
        }),
      ),
    ).toThrow('page refused');
    expect(sync(db)).toBe(2);
    expect(db.setting('probe')).toBe('a');
    db.close();
  });

  it('changes nothing inside an open transaction (the pragma would not apply to its commit)', () => {
    const db = openDatabase(join(dir, 'commit-sync-nested.sqlite'));
    const seen = db.tx(() => withoutCommitSync(db.raw, () => sync(db)));
    expect(seen).toBe(2);
    expect(sync(db)).toBe(2);
    db.close();
  });
});
