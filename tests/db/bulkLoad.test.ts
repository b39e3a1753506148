// Bulk loads drop secondary indexes and rebuild them once; a load interrupted
// by a crash is repaired the next time the database is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beginBulkLoad } from '../../src-main/db/bulkLoad';
import { openDatabase, type Db } from '../../src-main/db/database';
import { seedDemoData } from '../../src-main/seed/seedDemoData';

const dir = mkdtempSync(join(tmpdir(), 'outpost-bulk-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexNames = (db: Db) =>
  db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name LIKE 'annotation%' ORDER BY name").map((r) => r.name);

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

  it('does nothing to tables that already hold rows', () => {
    const db = openDatabase(join(dir, 'full.sqlite'));
    seedDemoData(db, { annotations: 10 });
    expect(beginBulkLoad(db, ['annotations'])).toBe(false);
    db.close();
  });
});
