// The local table of each kind of record the sync tables name (by the resource
// names of the conflict log and the outbox, as conflictUndo.ts keys them), for
// what the sync view does with a record it knows only by id: call it by its
// name here, so a conflict or a refused edit reads "annotation Pump 3 overheat"
// rather than a bare id; tell whether it is still held here; and delete it
// (a refused create given up: refusedCreates.ts).
import type { Db } from '../../db/database';

interface RecordTable {
  readonly table: string;
  /** The column the sync view shows; none for a log (the writes that target one target its annotation too). */
  readonly name?: string;
}

const TABLES: Record<string, RecordTable> = {
  annotation: { table: 'annotations', name: 'name' },
  annotation_log: { table: 'annotation_logs' },
  saved_search: { table: 'saved_searches', name: 'name' },
  policy: { table: 'policies', name: 'name' },
  test_report: { table: 'test_reports', name: 'name' },
  test_step: { table: 'test_steps', name: 'name' },
  test_measurement: { table: 'test_measurements', name: 'name' },
  artifact: { table: 'artifacts', name: 'file_name' },
  artifact_version: { table: 'artifact_versions', name: 'file_name' },
  remote_file: { table: 'remote_files', name: 'file_name' },
};

const tableOf = (resource: string): RecordTable | undefined => (Object.hasOwn(TABLES, resource) ? TABLES[resource] : undefined);

/** The record's name here; '' when it is not held here (deleted, never pulled) or its kind has none. */
export function recordName(db: Db, resource: string, id: string): string {
  const t = tableOf(resource);
  return (t?.name && db.get<{ name: string | null }>(`SELECT ${t.name} AS name FROM ${t.table} WHERE id = ?`, [id])?.name) || '';
}

/** Deletes the records `refs` names that are held here; their child rows go with them (ON DELETE CASCADE). */
export function deleteHeld(db: Db, refs: readonly { resource: string; id: string }[]): void {
  const byTable = new Map<string, string[]>();
  for (const r of refs) {
    const t = tableOf(r.resource);
    if (t) byTable.set(t.table, [...(byTable.get(t.table) ?? []), r.id]);
  }
  for (const [table, ids] of byTable) db.run(`DELETE FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`, [JSON.stringify(ids)]);
}

/** Whether record `id` of `resource` is held here (a kind this module does not know is not). */
export function heldHere(db: Db, resource: string, id: string): boolean {
  const t = tableOf(resource);
  return t !== undefined && db.get(`SELECT 1 FROM ${t.table} WHERE id = ?`, [id]) !== undefined;
}
