// Test step paths stored once, compactly (issue #19 item 3): the text
// step_path and its text sort key step_path_key (about 8 bytes per nesting
// level, in the row and in two indexes) become one lossless BLOB key path_key
// (about one byte per level, see db/encodings/stepPathKey.ts), from which the wire's
// step_path is decoded on read and by step_path_text() in filters. The two
// path indexes are rebuilt on it (also in the record of indexes an
// interrupted bulk load left deferred, so the repair at open builds the new
// ones).
// test_report_imports marks a report whose import is still copying rows
// (services/testReports/importTestReport.ts): it and everything under it stay
// out of lists and counts until the import's last transaction removes the mark.
import type { Database } from 'better-sqlite3';
import { encodeStepPath } from '../encodings/stepPathKey';
import type { Migration } from './types';

const INDEXES: Record<string, string> = {
  test_steps_org_path: 'CREATE INDEX test_steps_org_path ON test_steps(organization_id, path_key, pk)',
  test_steps_report_path: 'CREATE INDEX test_steps_report_path ON test_steps(test_report_id, path_key, pk)',
};

function up(db: Database): void {
  db.exec('DROP INDEX IF EXISTS test_steps_org_path; DROP INDEX IF EXISTS test_steps_report_path;');
  db.exec("ALTER TABLE test_steps ADD COLUMN path_key BLOB NOT NULL DEFAULT x''");
  db.function('migration_0013_step_path_key', { deterministic: true }, (path: unknown) => encodeStepPath(String(path)));
  db.exec('UPDATE test_steps SET path_key = migration_0013_step_path_key(step_path)');
  db.exec('ALTER TABLE test_steps DROP COLUMN step_path; ALTER TABLE test_steps DROP COLUMN step_path_key;');
  db.exec('CREATE TABLE test_report_imports (report_pk INTEGER PRIMARY KEY REFERENCES test_reports(pk) ON DELETE CASCADE)');
  const setting = db.prepare("SELECT value FROM settings WHERE key = 'sync.deferred_indexes'").get() as { value: string } | undefined;
  const deferred = setting ? (JSON.parse(setting.value) as { name: string; sql: string }[]) : [];
  if (deferred.some((ix) => ix.name in INDEXES)) {
    const rewritten = deferred.map((ix) => (ix.name in INDEXES ? { name: ix.name, sql: INDEXES[ix.name] } : ix));
    db.prepare("UPDATE settings SET value = ? WHERE key = 'sync.deferred_indexes'").run(JSON.stringify(rewritten));
  } else {
    for (const sql of Object.values(INDEXES)) db.exec(sql);
  }
}

export const migration0013: Migration = { version: 13, name: 'step-path-keys', up };
