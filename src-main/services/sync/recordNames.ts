// What the sync view calls a record: its name here, so a conflict or a refused
// edit reads "annotation Pump 3 overheat" rather than a bare id. Keyed by the
// sync resource names of the conflict log and the outbox (as conflictUndo.ts
// is). A log has no name; the writes that target one target its annotation too.
import type { Db } from '../../db/database';

const NAME_BY_ID: Record<string, string> = {
  annotation: 'SELECT name FROM annotations WHERE id = ?',
  saved_search: 'SELECT name FROM saved_searches WHERE id = ?',
  policy: 'SELECT name FROM policies WHERE id = ?',
  test_report: 'SELECT name FROM test_reports WHERE id = ?',
  test_step: 'SELECT name FROM test_steps WHERE id = ?',
  test_measurement: 'SELECT name FROM test_measurements WHERE id = ?',
  artifact: 'SELECT file_name AS name FROM artifacts WHERE id = ?',
  remote_file: 'SELECT file_name AS name FROM remote_files WHERE id = ?',
};

/** The record's name here; '' when it is not held here (deleted, never pulled) or its kind has none. */
export function recordName(db: Db, resource: string, id: string): string {
  const sql = Object.hasOwn(NAME_BY_ID, resource) ? NAME_BY_ID[resource] : undefined;
  return (sql && db.get<{ name: string | null }>(sql, [id])?.name) || '';
}
