// One store per table: a table that has its store is written by it alone
// (services and sync alike), so a row's shape is decided in one place.
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { tablesWrittenBy, writesOutsideStores, writesTableNamedAtRunTime } from './tableWriters';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('table stores', () => {
  test('no source file outside a table store writes its table', () => {
    expect(writesOutsideStores(ROOT, ['src-main'])).toEqual([]);
  });

  test('the scanner sees every form of write', () => {
    const sql = `INSERT INTO annotations(id) VALUES (?); INSERT OR IGNORE INTO annotation_tags(x) VALUES (1);
      UPDATE annotations SET name = ?; DELETE FROM annotation_metadata WHERE 1; SELECT * FROM runs; UPDATE OR REPLACE runs SET x = 1;
      INSERT INTO main.test_steps(pk) SELECT key FROM staging.steps`;
    const helpers = `replaceMetadata(db, 'asset_metadata', 'asset_pk', pk, m); replaceList(ctx.db, 'run_tags', 'run_pk', 'tag_name', pk, t); loadMetadata(db, 'run_metadata', 'run_pk', pks)
      export const policyRows = recordTable('policies');`;
    expect([...tablesWrittenBy(sql)].sort()).toEqual(['annotation_metadata', 'annotation_tags', 'annotations', 'runs', 'test_steps']);
    expect([...tablesWrittenBy(helpers)].sort()).toEqual(['asset_metadata', 'policies', 'run_tags']);
    // A table named at run time (a descriptor's, say) is a write the names above cannot see.
    expect(writesTableNamedAtRunTime('db.run(`DELETE FROM ${kind.table} WHERE id = ?`, [id])')).toBe(true);
    expect(writesTableNamedAtRunTime('db.run(`UPDATE main.${t} SET x = 1`)')).toBe(true);
    expect(writesTableNamedAtRunTime('db.get(`SELECT name FROM ${kind.table} WHERE id = ?`, [id])')).toBe(false);
  });
});
